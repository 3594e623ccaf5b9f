#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-many.sh DIR N: a library of N one-line functions and a program calling each once.
set -eu
dir=$1 n=$2
mkdir -p "$dir"
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "int many_%d(int x) { return x + %d; }\n", i, i }' > "$dir/libmany.c"
awk -v n="$n" 'BEGIN {
	print "#include <stdio.h>"
	for (i = 0; i < n; i++) printf "int many_%d(int);\n", i
	print "int main(void)\n{\n\tlong s = 0;"
	for (i = 0; i < n; i++) printf "\ts += many_%d(%d);\n", i, i
	print "\tprintf(\"%ld\\n\", s);\n\treturn 0;\n}"
}' > "$dir/many.c"
