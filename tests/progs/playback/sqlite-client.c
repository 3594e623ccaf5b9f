/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sqlite-client.c: a sqlite3 client for tests/playback.bats: open, exec,
 * prepare, bind (text, double, blob), step, column, finalize, close, and
 * with "callback" an exec whose callback is the program's, with "thread"
 * a second thread with a database of its own.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

/* A row of the callback's query. */
static int row(void *arg, int n, char **values, char **names)
{
	(void)arg;
	(void)names;
	printf("row %s\n", n > 0 && values[0] ? values[0] : "NULL");
	return 0;
}

/* The second thread: a database of its own, a table, a count. */
static void *other(void *arg)
{
	sqlite3_stmt *st;
	sqlite3 *db;

	(void)arg;
	sqlite3_open(":memory:", &db);
	sqlite3_exec(db, "CREATE TABLE u(x); INSERT INTO u VALUES (1), (2)",
		     NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "SELECT count(*) FROM u", -1, &st, NULL);
	sqlite3_step(st);
	printf("other: %d\n", sqlite3_column_int(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return NULL;
}

int main(int argc, char **argv)
{
	static const unsigned char blob[] = { 0, 1, 2, 0xff, '"', 0, 7 };
	int callback = argc > 1 && strcmp(argv[1], "callback") == 0;
	int thread = argc > 1 && strcmp(argv[1], "thread") == 0;
	pthread_t t;
	sqlite3_stmt *st;
	sqlite3 *db;
	char name[32];
	int i;

	if (thread && pthread_create(&t, NULL, other, NULL) != 0)
		return 1;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 1;
	sqlite3_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)",
		     NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO t(name, score, data) VALUES (?, ?, ?)",
			   -1, &st, NULL);
	for (i = 0; i < 3; i++) {
		/* The same buffer each time, other bytes in it. */
		snprintf(name, sizeof(name), "name-%d", i);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_double(st, 2, i * 1.5);
		sqlite3_bind_blob(st, 3, blob, (int)sizeof(blob) - i, SQLITE_STATIC);
		sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_prepare_v2(db, "SELECT id, name, score, length(data) FROM t ORDER BY id",
			   -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW)
		printf("%d %s %g %d\n", sqlite3_column_int(st, 0),
		       (const char *)sqlite3_column_text(st, 1),
		       sqlite3_column_double(st, 2), sqlite3_column_int(st, 3));
	sqlite3_finalize(st);
	if (callback)
		sqlite3_exec(db, "SELECT name FROM t", row, NULL, NULL);
	sqlite3_close(db);
	if (thread)
		pthread_join(t, NULL);
	return 0;
}
