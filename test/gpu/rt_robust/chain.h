// chain.h - host side of a chain x <- step<ID>(x) on one stream, with what
// the device must report afterwards: the launch order (log of tags), the
// number of launches (seq) and of blocks.  Used by chain.cu and graph.cu.
//
// link<ID>() launches one link (from a site in the caller's loop, or from
// a noinline helper, a site outside any loop); while a capture is open the
// links go to `captured` and count once per replay of the graph (replay()).
// finish() copies back and compares: prints "FAIL ..." lines and returns
// false on any difference, else prints the chain's checksum.
#ifndef RT_ROBUST_CHAIN_H
#define RT_ROBUST_CHAIN_H

#include <string>
#include <vector>

#include "common.h"

template <int ID>
__attribute__((noinline)) void step_once(dim3 grid, int block, cudaStream_t s, float4 *out,
                                         const float4 *in, int n, unsigned tag, unsigned *seq,
                                         unsigned *log, unsigned cap,
                                         unsigned long long *blocks) {
  step<ID><<<grid, block, 0, s>>>(out, in, n, tag, seq, log, cap, blocks);
}

struct Chain {
  std::string name;
  int n = 0, cur = 0;
  float4 *x[2] = {nullptr, nullptr};
  unsigned *seq = nullptr, *log = nullptr, cap = 0;
  unsigned long long *blocks = nullptr;
  std::vector<unsigned> want_log, captured_log;
  unsigned long long want_blocks = 0, captured_blocks = 0;
  unsigned next_tag = 1;
  bool capturing = false;
  int captured_links = 0;

  void init(const char *nm, int n_, unsigned cap_, uint64_t seed, cudaStream_t s) {
    name = nm;
    n = n_;
    cap = cap_;
    std::vector<float4> h(n);
    fill_input(h.data(), n, seed);
    for (int b = 0; b < 2; b++) {
      CK(cudaMalloc(&x[b], n * sizeof(float4)));
      CK(cudaMemcpyAsync(x[b], h.data(), n * sizeof(float4), cudaMemcpyHostToDevice, s));
    }
    CK(cudaMalloc(&seq, sizeof *seq));
    CK(cudaMalloc(&log, cap * sizeof *log));
    CK(cudaMalloc(&blocks, sizeof *blocks));
    CK(cudaMemsetAsync(seq, 0, sizeof *seq, s));
    CK(cudaMemsetAsync(log, 0, cap * sizeof *log, s));
    CK(cudaMemsetAsync(blocks, 0, sizeof *blocks, s));
    CK(cudaStreamSynchronize(s));
  }

  // One link over the first `active` elements with `block` threads per block.
  template <int ID>
  void link(cudaStream_t s, int active, int block, bool once) {
    unsigned tag = next_tag++;
    dim3 grid((active + block - 1) / block);
    float4 *in = x[cur], *out = x[cur ^ 1];
    if (once)
      step_once<ID>(grid, block, s, out, in, active, tag, seq, log, cap, blocks);
    else
      step<ID><<<grid, block, 0, s>>>(out, in, active, tag, seq, log, cap, blocks);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      std::printf("FAIL %s: launch of link %u: %s (%d)\n", name.c_str(), tag,
                  cudaGetErrorString(e), (int)e);
      std::exit(1);
    }
    cur ^= 1;
    if (capturing) {
      captured_log.push_back(tag);
      captured_blocks += grid.x;
      captured_links++;
    } else {
      want_log.push_back(tag);
      want_blocks += grid.x;
    }
  }

  void replayed() {  // the graph holding the captured links ran once more
    want_log.insert(want_log.end(), captured_log.begin(), captured_log.end());
    want_blocks += captured_blocks;
  }

  bool finish(cudaStream_t s) {
    CK(cudaStreamSynchronize(s));
    unsigned got_seq = 0;
    unsigned long long got_blocks = 0;
    std::vector<unsigned> got(cap);
    std::vector<float4> h(n);
    CK(cudaMemcpy(&got_seq, seq, sizeof got_seq, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&got_blocks, blocks, sizeof got_blocks, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got.data(), log, cap * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h.data(), x[cur], n * sizeof(float4), cudaMemcpyDeviceToHost));
    bool ok = true;
    if (got_seq != want_log.size()) {
      std::printf("FAIL %s: %u launches ran, %zu were made\n", name.c_str(), got_seq,
                  want_log.size());
      ok = false;
    }
    if (got_blocks != want_blocks) {
      std::printf("FAIL %s: %llu blocks ran, %llu were launched\n", name.c_str(), got_blocks,
                  want_blocks);
      ok = false;
    }
    size_t m = want_log.size() < cap ? want_log.size() : cap;
    for (size_t i = 0; i < m; i++)
      if (got[i] != want_log[i]) {
        std::printf("FAIL %s: launch %zu ran link %u, expected link %u (order)\n", name.c_str(),
                    i, got[i], want_log[i]);
        ok = false;
        break;
      }
    std::printf("CHAIN %s links=%zu blocks=%llu checksum=%016" PRIx64 " %s\n", name.c_str(),
                want_log.size(), got_blocks, fnv1a(h.data(), n * sizeof(float4)),
                ok ? "OK" : "FAIL");
    for (int b = 0; b < 2; b++)
      CK(cudaFree(x[b]));
    CK(cudaFree(seq));
    CK(cudaFree(log));
    CK(cudaFree(blocks));
    return ok;
  }
};

#endif
