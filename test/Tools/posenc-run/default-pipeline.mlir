// docs/posenc-run.md shows the default pipeline the tool really uses.
// (The sed pattern spells posenc.run: lit would substitute the tool name.)

// RUN: posenc-run %s --dump-ir --iterations=1 2>&1 >/dev/null | sed -n 's|^// posenc.run pipeline: ||p' > %t
// RUN: count 1 < %t
// RUN: grep -x -F -f %t %posenc_src_root/docs/posenc-run.md

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
