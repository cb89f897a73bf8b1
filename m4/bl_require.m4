# SPDX-License-Identifier: GPL-3.0-or-later
# Dependency checks that stop configure with the Debian package to install.

# BL_REQUIRE_LIB(LIB, FUNCTION, HEADER, DEBIAN-PACKAGE, LIBS-VAR)
# Link test for FUNCTION in -lLIB (and HEADER if given); sets LIBS-VAR.
AC_DEFUN([BL_REQUIRE_LIB], [
  bl_save_LIBS=$LIBS
  AC_SEARCH_LIBS([$2], [$1], [],
    [AC_MSG_ERROR([lib$1 ($2) not found: install the Debian package $4])])
  m4_ifnblank([$3], [AC_CHECK_HEADER([$3], [],
    [AC_MSG_ERROR([header $3 not found: install the Debian package $4])])])
  AS_CASE([$ac_cv_search_$2],
          ["none required"], [$5=""],
          [$5=$ac_cv_search_$2])
  LIBS=$bl_save_LIBS
  AC_SUBST([$5])
])

# BL_REQUIRE_PKG(PREFIX, PKG-CONFIG-MODULE, DEBIAN-PACKAGE)
AC_DEFUN([BL_REQUIRE_PKG], [
  PKG_CHECK_MODULES([$1], [$2], [],
    [AC_MSG_ERROR([$2 not found by pkg-config: install the Debian package $3])])
])
