#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gen-sql.sh N: write to stdout an SQL script of about 1.2 N statements (inserts, updates, queries, deletes) for the sqlite3 CLI.
set -eu
n=$1
awk -v n="$n" 'BEGIN {
	q = sprintf("%c", 39)
	print "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, qty INTEGER, price REAL);"
	print "CREATE INDEX item_name ON item(name);"
	for (i = 1; i <= n; i++) {
		printf "INSERT INTO item(name, qty, price) VALUES (%sname-%d%s, %d, %d.%02d);\n", q, i * 7919 % n, q, i % 97, i % 1000, i % 100
		if (i % 10 == 0)
			printf "UPDATE item SET qty = qty + 1 WHERE id = %d;\n", i / 2
		if (i % 20 == 0)
			printf "SELECT count(*), sum(qty), avg(price) FROM item WHERE name >= %sname-%d%s;\n", q, i, q
		if (i % 50 == 0)
			printf "DELETE FROM item WHERE id = %d;\n", i / 3
	}
	print "SELECT name, qty, price FROM item ORDER BY price DESC LIMIT 20;"
}'
