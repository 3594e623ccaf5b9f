/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tclframes.c: -k, the Tcl procs of a call and their lines.
 *
 * The interposer (lib/tclframes.c) sends with a call's stack copy the
 * procs the thread's interpreters run (CallFrames, innermost first, each
 * with the name it was called by) and the bytecode they run (CmdFrames of
 * type BC: the CallFrame, the ByteCode, the instruction's offset), and
 * describes each ByteCode the first time its thread's ring names it: its
 * command location map and, for a file's code, the file and the first
 * line of each command.  Here, as Tcl's TclGetSrcInfoForPc does, the
 * command whose code holds the offset most closely gives the line.
 *
 * A proc's line is that of the CmdFrame that runs its body's ByteCode.
 * The other CmdFrames of a file's code (a script's top level, a sourced
 * file's, even one sourced from a proc, which runs in the proc's
 * CallFrame; a namespace eval's body; an eval of a literal) are frames of
 * their own, named <script>, in their place among the procs.
 *
 * Names are made into valid UTF-8 (Tcl's strings are, but a cut one may
 * end inside a character) without control characters, which would break
 * a line or a JSON string.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "call-blobs.h"
#include "tclframes.h"
#include "utf8.h"
#include "xmalloc.h"

#define CODE_BUCKETS 1024

/* A ByteCode as its process described it. */
struct tcl_code {
	int pid;
	uint64_t addr;
	uint32_t ncmds;
	char *file;            /* NULL: not a file's code */
	int32_t *lines;        /* nloc (srcOffset, first line) pairs */
	uint32_t nloc;
	unsigned char *map;    /* codeDelta, codeLength, srcDelta */
	uint32_t map_len, length_at, srcdelta_at;
	struct tcl_code *next; /* in its hash chain */
};

static struct tcl_code *codes[CODE_BUCKETS];
static size_t ncodes; /* in codes[]: done() scans no bucket when none */

/* The bucket of ByteCode addr of process pid. */
static size_t code_bucket(int pid, uint64_t addr)
{
	return ((addr >> 4) ^ (uint64_t)pid) * 0x9e3779b97f4a7c15ull >> 54 &
	       (CODE_BUCKETS - 1);
}

/* ByteCode addr of process pid as last described, or NULL. */
static const struct tcl_code *code_find(int pid, uint64_t addr)
{
	const struct tcl_code *c;

	for (c = codes[code_bucket(pid, addr)]; c; c = c->next)
		if (c->addr == addr && c->pid == pid)
			return c;
	return NULL;
}

/* The len bytes at p into out (3 * len + 1 bytes), made safe to print; its length. */
static size_t safe_text(const unsigned char *p, size_t len, char *out)
{
	size_t i = 0, k = 0;

	while (i < len) {
		size_t n = utf8_length(p + i, len - i);

		if (n == 0 || (n == 1 && (p[i] < 0x20 || p[i] == 0x7f))) {
			out[k++] = '?';
			i++;
			continue;
		}
		memcpy(out + k, p + i, n);
		k += n;
		i += n;
	}
	out[k] = '\0';
	return k;
}

/* Keep ByteCode description b (a checked TCLCODE blob) of process pid. */
static void code_keep(int pid, const struct ltr_blob *b)
{
	const struct ltr_tcl_code *d = (const void *)b->data;
	const unsigned char *p = (const unsigned char *)(d + 1);
	struct tcl_code *c = xcalloc(1, sizeof(*c));
	size_t h = code_bucket(pid, d->code);

	/* Found first: a ByteCode made at a freed one's address wins. */
	c->pid = pid;
	c->addr = d->code;
	c->ncmds = d->ncmds;
	c->next = codes[h];
	codes[h] = c;
	ncodes++;
	if (d->type != 4 || !d->path_len)
		return;
	c->nloc = d->nloc;
	c->lines = xmalloc(d->nloc * 8 + 1);
	memcpy(c->lines, p, d->nloc * 8);
	p += d->nloc * 8;
	c->map_len = d->map_len;
	c->length_at = d->length_at;
	c->srcdelta_at = d->srcdelta_at;
	c->map = xmalloc(d->map_len + 1);
	memcpy(c->map, p, d->map_len);
	p += d->map_len;
	c->file = xmalloc(d->path_len * 3u + 1);
	safe_text(p, d->path_len, c->file);
}

void tclframes_ingest(int pid, const struct ltr_event *ev)
{
	event_blobs_each(pid, ev, LTR_BLOB_TCLCODE, code_keep);
}

/* The next number of a location map array at *at (1 byte, or 0xFF and 4 big-endian). */
static int32_t map_next(const struct tcl_code *c, uint32_t *at, uint32_t end)
{
	const unsigned char *p = c->map + *at;

	if (*at >= end)
		return 0;
	if (p[0] != 0xff) {
		*at += 1;
		return (int8_t)p[0];
	}
	if (*at + 5 > end) {
		*at = end;
		return 0;
	}
	*at += 5;
	return (int32_t)((uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 8 | p[4]);
}

/* The line of ByteCode c's instruction at offset pc (TclGetSrcInfoForPc); 0: unknown. */
static int code_line(const struct tcl_code *c, int64_t pc)
{
	uint32_t cd = 0, cl = c->length_at, sd = c->srcdelta_at, i;
	int64_t code_off = 0, src_off = 0, best_dist = -1, best_src = -1;

	if (!c->file || pc < 0)
		return 0;
	for (i = 0; i < c->ncmds; i++) {
		int64_t len;

		code_off += map_next(c, &cd, c->length_at);
		len = map_next(c, &cl, c->srcdelta_at);
		src_off += map_next(c, &sd, c->map_len);
		if (code_off > pc)
			break;
		if (pc <= code_off + len - 1 &&
		    (best_dist < 0 || pc - code_off <= best_dist)) {
			best_dist = pc - code_off;
			best_src = src_off;
		}
	}
	for (i = 0; best_src >= 0 && i < c->nloc; i++)
		if (c->lines[2 * i] == best_src)
			return c->lines[2 * i + 1] > 0 ? c->lines[2 * i + 1] : 0;
	return 0;
}

/* Proc frame f's name into out (sizeof tcl_frame.name), made safe to print. */
static void frame_name(const struct ltr_tcl_frame *f, char *out)
{
	size_t k = safe_text((const unsigned char *)f->name, f->name_len, out);

	if (!k)
		out[k++] = '?';
	if (f->truncated) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

/* The file and line of bytecode CmdFrame cmd of process pid into t; false if none. */
static bool cmd_where(int pid, const struct ltr_tcl_cmd *cmd,
		      struct tcl_frame *t)
{
	const struct tcl_code *code = code_find(pid, cmd->code);
	int line = !code ? 0 : cmd->type == 4 ? (code->file ? cmd->line : 0)
					      : code_line(code, cmd->pc);

	if (!line)
		return false;
	t->file = code->file;
	t->line = line;
	return true;
}

/* Does CmdFrame cmd run proc frame f's body (not a file it sources, nor an eval's script)? */
static bool is_body(const struct ltr_tcl_frame *f, const struct ltr_tcl_cmd *cmd)
{
	return cmd->type == 2 && cmd->frame == f->frame && cmd->code == f->body;
}

/* Proc frame f into t, with the line of its innermost CmdFrame of cmds[0..nc) that has one. */
static void proc_frame(int pid, const struct ltr_tcl_frame *f,
		       const struct ltr_tcl_cmd *cmds, unsigned nc,
		       struct tcl_frame *t)
{
	unsigned i;

	frame_name(f, t->name);
	t->kind = f->kind & 2 ? "lambda" : f->kind & 4 ? "method" : "proc";
	t->file = NULL;
	t->line = 0;
	for (i = 0; i < nc; i++)
		if (is_body(f, &cmds[i]) && cmd_where(pid, &cmds[i], t))
			return;
}

unsigned tclframes_of(int pid, const struct call *c, struct tcl_frame *out,
		      unsigned max)
{
	const struct ltr_blob *b = args_blob(c, LTR_BLOB_TCLFRAMES);
	const struct ltr_tcl_head *h;
	const struct ltr_tcl_frame *f;
	const struct ltr_tcl_cmd *cmds;
	unsigned np, nc, i, k, done = 0, n = 0;

	if (!b)
		return 0;
	h = (const void *)b->data;
	f = (const struct ltr_tcl_frame *)(h + 1);
	cmds = (const struct ltr_tcl_cmd *)(f + h->nprocs);
	np = h->nprocs;
	nc = h->ncmds;
	/* In the CmdFrames' order: procs as their code shows, scripts between. */
	for (i = 0; i < nc && n < max; i++) {
		for (k = 0; k < np && !is_body(&f[k], &cmds[i]); k++)
			;
		if (k < np) {
			for (; done <= k && n < max; done++)
				proc_frame(pid, &f[done], cmds, nc, &out[n++]);
			continue;
		}
		if (!cmd_where(pid, &cmds[i], &out[n]))
			continue;
		strcpy(out[n].name, "<script>");
		out[n++].kind = "script";
	}
	for (; done < np && n < max; done++)
		proc_frame(pid, &f[done], cmds, nc, &out[n++]);
	return n;
}

bool tclframes_is_libtcl(const char *path)
{
	const char *base = path ? strrchr(path, '/') : NULL;

	return base && strncmp(base + 1, "libtcl", 6) == 0;
}

void tclframes_done(void)
{
	size_t i;

	for (i = 0; ncodes && i < CODE_BUCKETS; i++) {
		struct tcl_code *c;

		while ((c = codes[i]) != NULL) {
			codes[i] = c->next;
			ncodes--;
			free(c->file);
			free(c->lines);
			free(c->map);
			free(c);
		}
	}
}
