#!/bin/bash
f=$1
d=$(mktemp -d)
llc-22 -O0 -mcpu=znver4 -filetype=obj $f -o $d/a.o 2>/dev/null || { rm -rf $d; exit 1; }
clang-22 -no-pie "$(dirname "$0")/driver.c" $d/a.o -lm -o $d/a 2>/dev/null || { rm -rf $d; exit 1; }
timeout 5 $d/a | grep -q "maxerr 0$" || { rm -rf $d; exit 1; }
llc-22 -O3 -mcpu=znver4 -filetype=obj $f -o $d/b.o 2>/dev/null || { rm -rf $d; exit 1; }
clang-22 -no-pie "$(dirname "$0")/driver.c" $d/b.o -lm -o $d/b 2>/dev/null || { rm -rf $d; exit 1; }
n=$(timeout 5 $d/b | grep -c wrong)
rm -rf $d
[ "$n" -gt 0 ]
