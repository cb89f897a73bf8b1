// SPDX-License-Identifier: GPL-3.0-or-later
// A command-line driver for the authors' AOSO-LogitBoost (pengsun/
// AOSOLogitBoost, which ships only Matlab wrappers), built against their
// sources in a scratch folder by run.sh; not part of boostlab.  Reads a CSV
// training and test file (label first, a header line), trains with T, nu, J
// and node_size, and prints per iteration: t, their training loss, test
// errors (their incremental predict, as their Matlab script counts them);
// with a file as seventh argument, every tree's nodes in creation order (node ids as
// in boostlab's model files) for docs/results-logitboost.md's comparison.
#include "AOSOLogitBoost.hpp"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <map>
using namespace std;

struct B : AOSOLogitBoost {
  double loss(int t) { return L_iter_.at<double>(t); }
  std::vector<AOSOTree>& trees() { return trees_; }
};

static void load(const char* fn, MLData& d) {
  ifstream f(fn); string line; getline(f, line);
  vector<vector<float> > rows; vector<float> ys;
  while (getline(f, line)) {
    if (line.empty()) continue;
    stringstream ss(line); string tok; vector<float> r; bool first = true;
    while (getline(ss, tok, ',')) {
      if (first) { ys.push_back(atof(tok.c_str())); first = false; }
      else r.push_back(atof(tok.c_str()));
    }
    rows.push_back(r);
  }
  int n = rows.size(), dd = rows[0].size();
  d.X.create(n, dd); d.Y.create(n, 1);
  for (int i = 0; i < n; i++) { for (int j = 0; j < dd; j++) d.X(i, j) = rows[i][j]; d.Y(i) = ys[i]; }
  d.problem_type = PROBLEM_CLS;
  d.var_type.assign(dd, VAR_NUM);
  d.preprocess();
}

static void dump_tree(FILE* o, AOSOTree& t, MLData& tr, int it) {
  // node counts from the training rows
  std::map<const AOSONodegain*, int> cnt;
  for (int i = 0; i < tr.X.rows; i++) cnt[t.get_node(tr.X.ptr<float>(i))]++;
  for (std::list<AOSONodegain>::iterator n = t.nodes_.begin(); n != t.nodes_.end(); ++n) {
    if (n->left_) fprintf(o, "%d node %d split f%d thr %.3f gain %.17g\n", it, n->id_,
                          n->split_.var_idx_, n->split_.threshold_, n->split_.expected_gain_);
    else fprintf(o, "%d node %d leaf n %d pair %d %d val %.17g\n", it, n->id_, cnt[&*n],
                 n->cls1_, n->cls2_, n->fit_val_);
  }
}

int main(int argc, char** argv) {
  if (argc < 7) { fprintf(stderr, "usage: train.csv test.csv T v J ns [treesdump]\n"); return 2; }
  MLData tr, te;
  load(argv[1], tr); load(argv[2], te);
  B b; b.param_.T = atoi(argv[3]); b.param_.v = atof(argv[4]);
  b.param_.J = atoi(argv[5]); b.param_.ns = atoi(argv[6]);
  b.train(&tr);
  int T = b.get_num_iter();
  FILE* o = argc > 7 ? fopen(argv[7], "w") : NULL;
  int K = b.get_class_count();
  for (int t = 1; t <= T; t++) {
    MLData q = te; // predict writes Y
    b.predict(&q, t);
    int err = 0;
    for (int i = 0; i < te.X.rows; i++) {
      float* s = q.Y.ptr<float>(i); int am = 0;
      for (int k = 1; k < K; k++) if (s[k] > s[am]) am = k;
      if (am != int(te.Y(i))) err++;
    }
    printf("%d %.17g %d\n", t, b.loss(t - 1), err);
    if (o) dump_tree(o, b.trees()[t - 1], tr, t);
  }
  if (o) fclose(o);
  fprintf(stderr, "iterations %d test errors (last line)\n", T);
  return 0;
}
