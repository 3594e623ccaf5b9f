#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-lines.sh N: write to stdout N lines of four accented words with numbers, the same every time, for "sort" in a UTF-8 locale (strcoll on most calls).
set -eu
n=$1
awk -v n="$n" 'BEGIN {
	split("äpfel Zebra élan cote côte naïve Straße ångström zoo apple Éclair über", w, " ")
	srand(1)
	for (i = 1; i <= n; i++) {
		line = ""
		for (j = 0; j < 4; j++)
			line = line (j ? " " : "") w[1 + int(rand() * 12)] int(rand() * 100000)
		print line
	}
}'
