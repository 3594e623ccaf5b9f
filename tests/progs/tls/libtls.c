/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libtls.c: a library with TLS_SIZE bytes of initial-exec TLS, the model
 * of jemalloc's, which only the static TLS block can hold.  Built as
 * libtls-start.so and libtls-huge.so (linked at start) and
 * plugin/libtls-plugin.so (dlopened).  Static: each object has a block of
 * its own, none bound to another's by name; volatile: kept at -O2.
 */
static __attribute__((tls_model("initial-exec"))) __thread volatile char tls_block[TLS_SIZE];

/* Write the block's ends; return the size, so that callers print it. */
int TLS_FUNC(int seed)
{
	tls_block[0] = (char)seed;
	tls_block[TLS_SIZE - 1] = (char)(seed + 1);
	return TLS_SIZE + tls_block[TLS_SIZE - 1] - tls_block[0] - 1;
}
