// The default pipeline is posenc-cpu-pipeline with the host-dependent options
// spelled out (docs/posenc-run.md), the same in --dump-ir and in
// --print-pipeline, which also names the host; running that text with
// --pipeline= reproduces the run.
// (The sed pattern spells posenc.run: lit would substitute the tool name.)

// RUN: posenc-run %s --dump-ir --iterations=1 2>&1 >/dev/null | sed -n 's|^// posenc.run pipeline: ||p' > %t
// RUN: count 1 < %t
// RUN: FileCheck %s --check-prefix=DEFAULT < %t
// RUN: posenc-run %s --print-pipeline | FileCheck %s --check-prefix=PRINT
// RUN: posenc-run %s --print-pipeline | sed -n 's|^pipeline: ||p' | diff - %t
// RUN: posenc-run %s --iterations=1 --pipeline="$(cat %t)" | FileCheck %s --check-prefix=RUN-IT
// RUN: posenc-run %s --print-pipeline --pipeline=canonicalize | FileCheck %s --check-prefix=GIVEN

// DEFAULT: {{^}}posenc-cpu-pipeline{approximate-exp=true approximate-trig=true attention-bf16-dot-products={{true|false}} attention-key-tile=64 attention-prerotate-keys=false attention-query-tile=64 attention-vector-width={{[0-9]+}} block-elements={{[0-9]+}} flash-attention=true nontemporal-min-bytes={{[0-9]+}} nontemporal-stores=true openmp=true vector-width={{[0-9]+}} workgroups=false}{{$}}
// PRINT: host: {{.+}}, {{[0-9]+}}-bit vectors, {{[0-9]+}}-byte lines, L2 {{[0-9]+}} KiB
// PRINT-NEXT: pipeline: posenc-cpu-pipeline{
// RUN-IT: RESULT entry=f
// GIVEN: pipeline: canonicalize{{$}}

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
