// chain.cu - launch order on one stream (test/gpu/rt_robust.sh, check 2):
// x <- step(x) iterated, each launch reading the previous one's output, so
// a lost, duplicated or reordered launch changes the final x; the device
// also logs the order the launches ran in and counts them and their blocks
// (chain.h).
//
// usage: chain [links=400]
// Links vary: most come from a site in the loop over the whole array (2048
// blocks of 256, which the runtime splits while tuning); every third from a
// noinline helper (a site outside any loop); every fifth covers a quarter of
// the array; every seventh uses 128-thread blocks (a second configuration
// of the same kernel tuned alongside).  Prints one CHAIN line (chain.h);
// exit 1 when the order, the launch count or the block count is wrong.
#include "chain.h"

int main(int argc, char **argv) {
  int links = argc > 1 ? atoi(argv[1]) : 400;
  if (links < 1) {
    std::fprintf(stderr, "usage: chain [links]\n");
    return 2;
  }
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const int n = 2048 * 256;
  Chain c;
  c.init("chain", n, (unsigned)links, 42, s);
  for (int i = 0; i < links; i++) {
    int active = i % 5 == 4 ? n / 4 : n;
    int block = i % 7 == 6 ? 128 : 256;
    c.link<0>(s, active, block, i % 3 == 2);
  }
  bool ok = c.finish(s);
  CK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
