#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-startup.sh DIR N: write the sources of N small libraries and a program linked to all of them.
set -eu
dir=$1 n=$2
mkdir -p "$dir"
main="$dir/startup.c"
echo '#include <stdio.h>' > "$main"
i=1
while [ "$i" -le "$n" ]; do
	printf 'int lib%d_f(int x) { return x + %d; }\nint lib%d_g(int x) { return lib%d_f(x) * 2; }\n' "$i" "$i" "$i" "$i" > "$dir/lib$i.c"
	printf 'int lib%d_g(int);\n' "$i" >> "$main"
	i=$((i + 1))
done
printf 'int main(void)\n{\n\tlong s = 0;\n' >> "$main"
i=1
while [ "$i" -le "$n" ]; do
	printf '\ts += lib%d_g(%d);\n' "$i" "$i" >> "$main"
	i=$((i + 1))
done
printf '\tprintf("%%ld\\n", s);\n\treturn 0;\n}\n' >> "$main"
