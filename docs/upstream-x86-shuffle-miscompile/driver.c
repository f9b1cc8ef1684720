// Runs the reduced posenc kernel (reduction.ll) on [1, 4, 3, 4, 7] f32 inputs
// and checks each of the 48 row maxima against a scalar loop.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
void __posenc_run_entry(float *, float *, int64_t, int64_t, int64_t, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                        int64_t, float *, float *, int64_t, int64_t, int64_t,
                        int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
int main() {
  float *x = aligned_alloc(64, 4096), *o = aligned_alloc(64, 4096);
  srand(1);
  for (int i = 0; i < 1 * 4 * 3 * 4 * 7; ++i)
    x[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
  __posenc_run_entry(x, x, 0, 1, 4, 3, 4, 7, 336, 84, 28, 7, 1, o, o, 0, 1, 4,
                     3, 4, 48, 12, 4, 1);
  double maxerr = 0;
  for (int r = 0; r < 48; ++r) {
    float m = -INFINITY;
    for (int j = 0; j < 7; ++j)
      m = fmaxf(m, x[r * 7 + j]);
    double e = fabs(m - o[r]);
    if (e > maxerr)
      maxerr = e;
    if (e > 0)
      printf("row %d wrong: %f vs %f\n", r, o[r], m);
  }
  printf("maxerr %g\n", maxerr);
}
