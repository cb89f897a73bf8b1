#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the binary fixtures of the data-reader tests (IDX files and gzip
# copies of some CSV/LIBSVM fixtures, good, truncated and corrupt).  The
# outputs are committed; run this again only to change them:
#   cd tests/data/idx && python3 make-fixtures.py
import gzip
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)


def gz(data):
    # mtime=0 and no file name: the same bytes on every run
    return gzip.compress(data, compresslevel=9, mtime=0)


def write(rel, data):
    with open(os.path.join(top, rel), "wb") as f:
        f.write(data)


def idx(type_code, dims, payload):
    return struct.pack(">BBBB", 0, 0, type_code, len(dims)) + \
        b"".join(struct.pack(">I", d) for d in dims) + payload


# 5 images of 2x3 pixels: pixel j of image i is 10*i + j; labels 0..2
pixels = bytes(10 * i + j for i in range(5) for j in range(6))
labels = bytes([0, 2, 1, 2, 0])
images_idx = idx(0x08, [5, 2, 3], pixels)
labels_idx = idx(0x08, [5], labels)
write("idx/small-images-idx3-ubyte", images_idx)
write("idx/small-labels-idx1-ubyte", labels_idx)
write("idx/small-images-idx3-ubyte.gz", gz(images_idx))
write("idx/small-labels-idx1-ubyte.gz", gz(labels_idx))
# 1-D items (magic 0x00000802): 5 items of 4 values
write("idx/vec-images-idx2-ubyte", idx(0x08, [5, 4], bytes(range(20))))
# errors
write("idx/float-images-idx3", idx(0x0D, [5, 2, 3], b"\0" * 120))
write("idx/four-labels-idx1-ubyte", idx(0x08, [4], labels[:4]))
write("idx/labels2d-idx2-ubyte", idx(0x08, [5, 1], labels))
write("idx/truncated-images-idx3-ubyte", images_idx[:16 + 6 * 3 + 4])
write("idx/trailing-images-idx3-ubyte", images_idx + b"\x07")
write("idx/badmagic-images", b"\x1f\x8c" + images_idx[2:])
write("idx/label200-labels-idx1-ubyte", idx(0x08, [5], bytes([0, 1, 200, 1, 0])))
# a larger gzip stream cut short: the whole data but no trailer, and cut
# in the middle of the deflate data
big = idx(0x08, [200, 28, 28], bytes((i * 7 + j * 13) % 256 for i in range(200)
                                      for j in range(784)))
write("idx/cut-labels-idx1-ubyte.gz", gz(idx(0x08, [200], bytes(i % 10 for i in range(200)))))
zbig = gz(big)
write("idx/cut-images-idx3-ubyte.gz", zbig[:len(zbig) // 2])
write("idx/notrailer-images-idx3-ubyte.gz", zbig[:-8])
zbad = bytearray(zbig)
for p in range(len(zbig) // 2, len(zbig) // 2 + 8):
    zbad[p] ^= 0x5A
write("idx/corrupt-images-idx3-ubyte.gz", bytes(zbad))

# gzip copies of text fixtures
for rel in ["csv/basic.csv", "libsvm/good.svm"]:
    with open(os.path.join(top, rel), "rb") as f:
        write(rel + ".gz", gz(f.read()))
# a CSV long enough that cutting its gzip stream loses whole lines
rows = ["label,f1,f2,f3"] + ["%d,%d,%d.5,%d" % (i % 3, i, i * 3, i * i)
                             for i in range(500)]
text = ("\n".join(rows) + "\n").encode()
zt = gz(text)
write("csv/truncated.csv.gz", zt[:len(zt) // 2])
write("csv/notrailer.csv.gz", zt[:-8])
corrupt = bytearray(zt)
for p in range(len(zt) // 3, len(zt) // 3 + 16):
    corrupt[p] ^= 0x5A
write("csv/corrupt.csv.gz", bytes(corrupt))
badcrc = bytearray(zt)
badcrc[-8] ^= 0xFF  # CRC-32 of the trailer
write("csv/badcrc.csv.gz", bytes(badcrc))
