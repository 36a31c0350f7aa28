// Memory traffic of a 256 MiB one-pass transform into a warm (faulted) destination: memcpy,
// a loop of ordinary 32-byte stores (read-for-ownership of each destination line), the same
// loop with non-temporal stores, and 16 KiB chunks staged in cache then streamed out. Best
// of 9, GB/s. For docs/perf/python.md:
//   gcc -O2 -o /tmp/store_probe crates/gcmkit-py/bench/store_probe.c && /tmp/store_probe
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((target("avx2"))) static void xor_store(const char*s,char*d,size_t n){
  __m256i k=_mm256_set1_epi8(0x5a);
  for(size_t i=0;i<n;i+=32){_mm256_storeu_si256((__m256i*)(d+i),_mm256_xor_si256(_mm256_loadu_si256((const __m256i*)(s+i)),k));}
}
__attribute__((target("avx2"))) static void xor_stream(const char*s,char*d,size_t n){
  __m256i k=_mm256_set1_epi8(0x5a);
  for(size_t i=0;i<n;i+=32){_mm256_stream_si256((__m256i*)(d+i),_mm256_xor_si256(_mm256_loadu_si256((const __m256i*)(s+i)),k));}
  _mm_sfence();
}
__attribute__((target("avx2"))) static void xor_chunk_then_stream(const char*s,char*d,size_t n){
  // 16 KiB chunk into a cache-resident scratch (ordinary stores), then streamed out.
  static __attribute__((aligned(64))) char scratch[16384];
  for(size_t off=0;off<n;off+=16384){
    xor_store(s+off,scratch,16384);
    for(size_t i=0;i<16384;i+=32)_mm256_stream_si256((__m256i*)(d+off+i),_mm256_load_si256((const __m256i*)(scratch+i)));
  }
  _mm_sfence();
}
int main(void){
  size_t n=256u<<20; char*s=aligned_alloc(64,n),*d=aligned_alloc(64,n);
  memset(s,1,n); memset(d,2,n);
  const char*name[4]={"memcpy","xor+store","xor+stream","xor chunk+stream"};
  double best[4]={1e9,1e9,1e9,1e9};
  for(int r=0;r<9;r++)for(int k=0;k<4;k++){double t=now();
    if(k==0)memcpy(d,s,n);else if(k==1)xor_store(s,d,n);else if(k==2)xor_stream(s,d,n);else xor_chunk_then_stream(s,d,n);
    t=now()-t; if(t<best[k])best[k]=t;}
  for(int k=0;k<4;k++)printf("%-18s %6.2f GB/s  %.2fx memcpy time\n",name[k],n/best[k]/1e9,best[k]/best[0]);
  return d[12345]==0;
}
