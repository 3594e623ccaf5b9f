/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclframes.c: -k, the Tcl procs of a call (lib/tclframes.c sends them).
 *
 * Each frame comes with the name its proc was called by, copied by the
 * interposer up to LTR_TCL_NAME_MAX bytes: made here into valid UTF-8
 * (Tcl's strings are, but a cut one may end inside a character) without
 * control characters, which would break a line or a JSON string.
 */
#include "config.h"

#include <string.h>

#include "call-blobs.h"
#include "tclframes.h"

/* Bytes of the UTF-8 sequence at p (at most len), 0 if it is none. */
static size_t utf8_len(const unsigned char *p, size_t len)
{
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	n = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3
		: p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	if (!n || n > len)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Frame f's name into out (sizeof tcl_frame.name), made safe to print. */
static void frame_name(const struct ltr_tcl_frame *f, char *out)
{
	const unsigned char *p = (const unsigned char *)f->name;
	size_t len = f->name_len, i = 0, k = 0;

	while (i < len) {
		size_t n = utf8_len(p + i, len - i);

		if (n == 0 || (n == 1 && (p[i] < 0x20 || p[i] == 0x7f))) {
			out[k++] = '?';
			i++;
			continue;
		}
		memcpy(out + k, p + i, n);
		k += n;
		i += n;
	}
	if (!k)
		out[k++] = '?';
	if (f->truncated) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

unsigned tclframes_of(const struct call *c, struct tcl_frame *out,
		      unsigned max)
{
	const struct ltr_blob *b = args_blob(c, LTR_BLOB_TCLFRAMES);
	const struct ltr_tcl_frame *f;
	unsigned n, i;

	if (!b)
		return 0;
	f = (const struct ltr_tcl_frame *)(b->data + sizeof(struct ltr_tcl_head));
	n = (unsigned)((b->len - sizeof(struct ltr_tcl_head)) / sizeof(*f));
	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		frame_name(&f[i], out[i].name);
		out[i].kind = f[i].kind & 2 ? "lambda"
			      : f[i].kind & 4 ? "method" : "proc";
	}
	return n;
}

bool tclframes_is_libtcl(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;

	return base && strncmp(base + 1, "libtcl", 6) == 0;
}
