/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefile-read.c: the event source of --read FILE.
 *
 * The file is read twice, a block at a time.  The first pass checks every block's
 * length and CRC and finds where the file ends: at its END block, or cut
 * where the last whole block ends (a block that runs past the end of the
 * file: the writer was killed, or the disk was full); a whole block that
 * fails its checksum, or a header no writer makes, is corruption and
 * stops everything before a line is printed.  It also takes the last
 * CLOCK block, so that every timestamp converts with the run's final
 * rate.  The second pass replays the blocks: TABLES fill a session image
 * (an anonymous mapping with the layout of lib/session.h, its untouched
 * pages costing nothing) that every formatter reads as it reads a live
 * session; EVENTS are decoded back into the ring records a block at a
 * time (tracefile-codec.c), checked as the live reader checks a ring's
 * records (check_event()) and go to trace.c through narrow.c; PROC blocks end
 * processes where the live trace did; COUNTS become the summary's rows.
 * Every length is checked against the block it is in, and no block is
 * larger than TF_BLOCK_MAX, so no file makes the reader allocate more.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-id.h"
#include "captures.h"
#include "clock.h"
#include "conf.h"
#include "crc32.h"
#include "error.h"
#include "format.h"
#include "narrow.h"
#include "prototype.h"
#include "session-check.h"
#include "strmap.h"
#include "trace.h"
#include "tracefile-codec.h"
#include "tracefile-read.h"
#include "tracefile.h"
#include "xmalloc.h"

#define PAUSE_NS 1000000ull /* a gap between events the live reader idles in */

static const char *path;
static int fd = -1;
static size_t size;
static unsigned char *blk; /* the block being read: header and payload */
/* Its events decoded: TF_EVENTS_MAX bytes, or one event (tracefile-write.c). */
#define DECODED_MAX (TF_EVENTS_MAX + 65536)
static uint64_t *decoded;
static struct tf_codec codec;
static struct ltr_session *image;
static size_t end_at;      /* where the blocks read end */
static bool cut;
static bool have_clock;
static struct tf_clock clock_rec;
static int slot_pid[LTR_MAX_THREADS]; /* the process each slot's events were of */
static struct proto *protos[LTR_MAX_CAPTURES];
/* Each its own allocation: resolved prototypes point at them (ptype.def). */
static struct named_type **types;
static size_t ntypes;
static struct strmap type_names; /* name: the last of types[] so called */
static char *sonames[LTR_MAX_OBJECTS]; /* of objects[], or NULL */
static struct tf_end end_rec;
static uint64_t last_ts;   /* of the last event replayed */
static int first_pid;       /* of the first events block */
static bool several;        /* events of more than one process */

/* The file is not one this ltruss reads: say why and where, exit 2. */
static void __attribute__((noreturn)) bad(size_t at, const char *what)
{
	error_msg_and_die("cannot read the trace file '%s': %s at byte %zu; it is not a trace ltruss -w wrote, or it was damaged",
			  path, what, at);
}

/* Pad n to 8 bytes. */
static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Check the header: magic, version, checksum. */
static void header_check(const struct tf_header *h)
{
	if (size < sizeof(h->magic) ||
	    memcmp(h->magic, TF_MAGIC, sizeof(h->magic)) != 0)
		bad(0, "no trace file magic (\"LTRUSS\")");
	if (size < offsetof(struct tf_header, header_size) + 4)
		bad(size, "the header is cut");
	if (h->version < TF_VERSION_FIRST)
		error_msg_and_die("cannot read the trace file '%s': it is format version %u, this ltruss reads versions %u to %u; read it with the ltruss that wrote it",
				  path, h->version, TF_VERSION_FIRST, TF_VERSION);
	if (h->version > TF_VERSION)
		error_msg_and_die("cannot read the trace file '%s': it is format version %u, this ltruss reads versions %u to %u; read it with a newer ltruss",
				  path, h->version, TF_VERSION_FIRST, TF_VERSION);
	if (size < sizeof(*h))
		bad(size, "the header is cut");
	if (h->header_size != sizeof(*h) ||
	    h->crc != crc32_update(0, h, offsetof(struct tf_header, crc)))
		bad(0, "the header fails its checksum");
	if (h->events_layout != TF_EVENTS_LAYOUT)
		bad(offsetof(struct tf_header, events_layout),
		    "an events layout no writer makes");
}

/* Read n bytes at offset off of the file into p, or die. */
static void bytes_read(void *p, size_t n, size_t off)
{
	ssize_t r;
	size_t done = 0;

	while (done < n) {
		r = pread(fd, (unsigned char *)p + done, n - done,
			  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			perror_msg_and_die("cannot read the trace file '%s'",
					   path);
		if (r == 0)
			error_msg_and_die("cannot read the trace file '%s': it shrank while being read",
					  path);
		done += (size_t)r;
	}
}

/*
 * The block at off, checked whole; NULL where the file ends (cut) before
 * it does.  Corruption does not return.
 */
static const struct tf_block *block_at(size_t off)
{
	const struct tf_block *b = (const void *)blk;

	if (size - off < sizeof(*b))
		return NULL;
	bytes_read(blk, sizeof(*b), off);
	if (b->type < TF_TABLES || b->type > TF_END || b->len > TF_BLOCK_MAX ||
	    b->reserved)
		bad(off, "a block header no writer makes");
	if (padded(b->len) > size - off - sizeof(*b))
		return NULL;
	bytes_read(blk + sizeof(*b), b->len, off + sizeof(*b));
	if (crc32_update(0, b + 1, b->len) != b->crc)
		bad(off, "a block fails its checksum");
	return b;
}

/* First pass: check every block, find the end, take the last clock. */
static void blocks_check(void)
{
	const struct tf_block *b;
	size_t off = sizeof(struct tf_header);
	bool ended = false;

	while (off < size && !ended) {
		b = block_at(off);
		if (!b)
			break;
		if (b->type == TF_CLOCK) {
			if (b->len != sizeof(clock_rec))
				bad(off, "a clock block of the wrong size");
			memcpy(&clock_rec, b + 1, sizeof(clock_rec));
			if (!isfinite(clock_rec.ticks_per_ns) ||
			    clock_rec.ticks_per_ns <= 0)
				bad(off, "a clock rate that is not a number");
			have_clock = true;
		}
		if (b->type == TF_EVENTS && b->len >= sizeof(struct tf_events)) {
			const struct tf_events *e = (const void *)(b + 1);

			if (!first_pid)
				first_pid = e->pid;
			several |= e->pid != first_pid;
		}
		ended = b->type == TF_END;
		off += sizeof(*b) + padded(b->len);
	}
	cut = !ended;
	end_at = off;
}

/* A copy of name from the file, its odd bytes as \xNN (check_name()). */
static char *printable(const char *name)
{
	char buf[1024];

	return xstrdup(check_name(buf, sizeof(buf), name));
}

/* A named type from a TYPE record (p, n bytes at off). */
static void type_load(const unsigned char *p, size_t n, size_t off)
{
	struct tf_type h;
	struct named_type *t;
	const char *names, *end;
	size_t i, values;

	if (n < sizeof(h))
		bad(off, "a type record too short");
	memcpy(&h, p, sizeof(h));
	values = (size_t)h.nenums + h.nflags;
	if (h.nenums > n / 8 || h.nflags > n / 8 || h.size > 8 ||
	    sizeof(h) + values * 8 + h.name_len != n || !h.name_len ||
	    p[n - 1] != '\0')
		bad(off, "a type record that does not add up");
	types = xrealloc(types, (ntypes + 1) * sizeof(*types));
	t = types[ntypes++] = xcalloc(1, sizeof(*t));
	t->size = (uint8_t)h.size;
	t->mask = h.mask;
	t->enums = xcalloc(h.nenums + 1, sizeof(*t->enums));
	t->flags = xcalloc(h.nflags + 1, sizeof(*t->flags));
	t->file = path;
	names = (const char *)p + sizeof(h) + values * 8;
	end = (const char *)p + n;
	t->name = printable(names);
	*strmap_slot(&type_names, t->name) = t;
	names += strlen(names) + 1;
	for (i = 0; i < values; i++) {
		struct type_value *v = i < h.nenums ? &t->enums[i]
						    : &t->flags[i - h.nenums];

		if (names >= end)
			bad(off, "a type record with names missing");
		memcpy(&v->value, p + sizeof(h) + i * 8, 8);
		v->name = printable(names);
		names += strlen(names) + 1;
		if (i < h.nenums)
			t->nenums++;
		else
			t->nflags++;
	}
}

/* The last named type the file carries called name (ctx unused), or NULL. */
static const struct named_type *type_named(const char *name, const void *ctx)
{
	(void)ctx;
	return strmap_get(&type_names, name);
}

/* The prototype of a PROTO record for capture at. */
static void proto_load(uint32_t at, const unsigned char *p, size_t n,
		       size_t off)
{
	struct proto *pr;
	unsigned errcol;
	const char *err;

	if (at >= LTR_MAX_CAPTURES || !n || p[n - 1] != '\0')
		bad(off, "a prototype record that does not add up");
	if (protos[at])
		bad(off, "a second prototype for one function");
	pr = xcalloc(1, sizeof(*pr));
	if (!proto_parse((const char *)p, pr, &errcol, &err))
		bad(off, "a prototype that does not parse");
	pr->file = path;
	/* Its named types came before it (tracefile-write.c proto_put). */
	proto_resolve(pr, type_named, NULL);
	protos[at] = pr;
	captures_set_proto((int32_t)at, pr);
}

/*
 * The file's names, each once in the image's string area (what the
 * formatters read names from): an object's path comes in the record of
 * each process that loaded it.
 */
static struct strmap names_interned; /* name: its offset + 1 */

/* The offset of name in the image's string area, put there if new. */
static uint32_t name_intern(const char *name, size_t off)
{
	void **slot = strmap_slot(&names_interned, name);
	uint32_t at = image->strings_used ? image->strings_used : 1;
	size_t n = strlen(name) + 1;

	if (*slot)
		return (uint32_t)((uintptr_t)*slot - 1);
	if (n > LTR_STRINGS_SIZE - at)
		bad(off, "more names than a trace holds");
	memcpy(image->strings + at, name, n);
	image->strings_used = at + (uint32_t)n;
	*slot = (void *)(uintptr_t)(at + 1);
	return at;
}

/*
 * The struct of a FUNC or OBJECT record (p, n bytes), of at least min
 * bytes (the ones this version reads; a later writer may add fields,
 * skipped), copied to r (min bytes); returns where its names start.
 */
static const char *record_fields(void *r, size_t min, const unsigned char *p,
				 size_t n, size_t off)
{
	uint32_t fields;

	if (n < sizeof(fields))
		bad(off, "a table record too short");
	memcpy(&fields, p, sizeof(fields));
	if (fields < min || fields > n || fields % 8)
		bad(off, "a table record too short");
	memcpy(r, p, min);
	return (const char *)p + fields;
}

/* The NUL-terminated name at *q, before end; *q moves past it. */
static const char *record_name(const char **q, const char *end, size_t off)
{
	const char *name = *q;
	const char *nul = memchr(name, '\0', (size_t)(end - name));

	if (!nul)
		bad(off, "a table record with names missing");
	*q = nul + 1;
	return name;
}

/* The session's LTR_FN_* flags of the file's TF_FN_* ones. */
static uint32_t func_flags(uint32_t flags)
{
	return LTR_FN_READY |
	       (flags & TF_FN_ENTRY_ONLY ? LTR_FN_ENTRY_ONLY : 0) |
	       (flags & TF_FN_DISABLED ? LTR_FN_DISABLED : 0) |
	       (flags & TF_FN_SETJMP ? LTR_FN_SETJMP : 0) |
	       (flags & TF_FN_VFORK ? LTR_FN_VFORK : 0);
}

/* A FUNC record (p, n bytes at off): function at. */
static void func_load(uint32_t at, const unsigned char *p, size_t n,
		      size_t off)
{
	struct tf_func r;
	const char *q = record_fields(&r, sizeof(r), p, n, off);
	const char *end = (const char *)p + n, *name, *lib;
	struct ltr_func *f;

	if (at != image->nfuncs || at >= LTR_MAX_FUNCS)
		bad(off, "a table record that does not append");
	if (r.proto < -1 || r.proto >= LTR_MAX_CAPTURES)
		bad(off, "a function of no prototype");
	name = record_name(&q, end, off);
	lib = record_name(&q, end, off);
	f = &image->funcs[at];
	f->capture = r.proto;
	f->depth = r.depth;
	f->name = name_intern(name, off);
	f->lib = name_intern(lib, off);
	f->flags = func_flags(r.flags);
	image->nfuncs = at + 1;
}

/*
 * The build ID recorded for each object (one at most), until the
 * object's own record names its file: the writer puts it just before
 * (tracefile-write.c object_put()).  Each is looked at twice in all,
 * however many records and blocks the file has.
 */
static struct id_pending {
	size_t len;
	unsigned char id[BUILD_ID_MAX];
} *ids_pending[LTR_MAX_OBJECTS];
static unsigned char id_seen[LTR_MAX_OBJECTS];

/* Object i is in the table: expect its build ID of its file, if recorded. */
static void id_expect(uint32_t i)
{
	const char *file;

	if (i >= image->nobjects || !ids_pending[i])
		return;
	file = session_string(image, image->objects[i].path);
	if (file)
		build_id_expect(file, ids_pending[i]->id, ids_pending[i]->len);
	free(ids_pending[i]);
	ids_pending[i] = NULL;
}

/*
 * An OBJECT record (p, n bytes at off): object at.  One with no addresses
 * (its process claimed it and was killed before it wrote it) gets an
 * empty range that is not 0 to 0: objmap.c takes an end of 0 for a
 * record still being written, and would wait at it for ever.
 */
static void object_load(uint32_t at, const unsigned char *p, size_t n,
			size_t off)
{
	struct tf_object r;
	const char *q = record_fields(&r, sizeof(r), p, n, off);
	struct ltr_objrec *o;

	if (at != image->nobjects || at >= LTR_MAX_OBJECTS)
		bad(off, "a table record that does not append");
	o = &image->objects[at];
	o->pid = r.pid;
	o->path = name_intern(record_name(&q, (const char *)p + n, off), off);
	o->start = r.start;
	o->end = r.end;
	o->bias = r.bias;
	if (r.start >= r.end)
		o->start = o->end = UINT64_MAX;
	image->nobjects = at + 1;
	id_expect(at);
}

/* A BUILD_ID record for object at: its ID (p, n bytes). */
static void id_load(uint32_t at, const unsigned char *p, size_t n, size_t off)
{
	if (at >= LTR_MAX_OBJECTS || !n || n > BUILD_ID_MAX)
		bad(off, "a build ID record that does not add up");
	if (id_seen[at]++)
		bad(off, "a second build ID for one object");
	ids_pending[at] = xcalloc(1, sizeof(*ids_pending[at]));
	ids_pending[at]->len = n;
	memcpy(ids_pending[at]->id, p, n);
	id_expect(at);
}

/*
 * A record of a type this ltruss does not know, from a later version
 * (whose reader may need it, this one does not): skipped, said once.
 */
static void record_unknown(uint32_t type, size_t off)
{
	static bool said;

	if (!said)
		warning_msg("the trace file '%s' has records of a kind this ltruss does not know (type %u at byte %zu, maybe more): skipped; a newer ltruss may show more",
			    path, type, off);
	said = true;
}

/*
 * The records of a TABLES block (p, n bytes at off).  No record changes
 * or frees what an earlier one made: formatters keep what they looked up
 * (a function's prototype, its resolved argument types, a name) for
 * calls in progress and later ones, so a second record for a function's
 * prototype, an object's soname or build ID, a table entry already
 * there, or other bytes for a string already written, is corruption.
 */
static void tables_load(const unsigned char *p, size_t n, size_t off)
{
	size_t i = 0;

	while (i < n) {
		struct tf_record r;
		const unsigned char *d;
		size_t at = off + sizeof(struct tf_block) + i;

		if (n - i < sizeof(r))
			bad(at, "a table record cut");
		memcpy(&r, p + i, sizeof(r));
		if (r.len > n - i - sizeof(r))
			bad(at, "a table record longer than its block");
		d = p + i + sizeof(r);
		switch (r.type) {
		case TF_REC_FUNC:
			func_load(r.at, d, r.len, at);
			break;
		case TF_REC_OBJECT:
			object_load(r.at, d, r.len, at);
			break;
		case TF_REC_PROTO:
			proto_load(r.at, d, r.len, at);
			break;
		case TF_REC_TYPE:
			type_load(d, r.len, at);
			break;
		case TF_REC_SONAME:
			if (r.at >= LTR_MAX_OBJECTS || !r.len ||
			    strnlen((const char *)d, r.len) != r.len - 1)
				bad(at, "a soname record that does not add up");
			if (sonames[r.at])
				bad(at, "a second soname for one object");
			sonames[r.at] = xstrdup((const char *)d);
			break;
		case TF_REC_BUILD_ID:
			id_load(r.at, d, r.len, at);
			break;
		default:
			if (r.type <= TF_REC_KNOWN_LAST)
				bad(at, "a table record of unknown type");
			record_unknown(r.type, at);
		}
		i += sizeof(r) + padded(r.len);
	}
}

/*
 * Live, ltruss shows a call blocking for a while when nothing comes for a
 * moment (trace_idle()): a pause before an event or a process end does
 * the same here, at the time the pause ended.
 */
static void pause_replay(uint64_t ts)
{
	if (last_ts && ts > last_ts &&
	    clock_ticks_to_ns(ts - last_ts) >= PAUSE_NS)
		trace_idle_at(ts);
	if (ts > last_ts)
		last_ts = ts;
}

/*
 * Decode the events of an EVENTS block (p, n bytes at off) into decoded[];
 * returns the bytes.  The whole block first, as the live reader hands on a
 * ring's records while they are still in the ring.
 */
static size_t events_decode(const unsigned char *p, size_t n, size_t off)
{
	const unsigned char *q = p + sizeof(struct tf_events), *end = p + n;
	size_t used = 0;
	const char *err;

	tf_codec_reset(&codec);
	while (q < end) {
		size_t at = off + sizeof(struct tf_block) + (size_t)(q - p);

		err = tf_decode(&codec, &q, end, decoded + used / 8,
				DECODED_MAX - used);
		if (err)
			bad(at, err);
		if (!check_event((const void *)(decoded + used / 8)))
			bad(at, "an event no interposer writes");
		used += ((const struct ltr_event *)(decoded + used / 8))->size;
	}
	return used;
}

/* The events of an EVENTS block (p, n bytes at off), to trace.c. */
static void events_replay(const unsigned char *p, size_t n, size_t off)
{
	struct tf_events h;
	size_t i = 0, used;

	if (n < sizeof(h))
		bad(off, "an events block too short");
	memcpy(&h, p, sizeof(h));
	if (h.slot >= LTR_MAX_THREADS)
		bad(off, "an events block of no thread slot");
	used = events_decode(p, n, off);
	slot_pid[h.slot] = h.pid;
	while (i < used) {
		const struct ltr_event *ev = (const void *)((unsigned char *)decoded + i);
		struct event_rec r = { .slot = h.slot, .pid = h.pid,
				       .tid = h.tid, .ev = ev };

		pause_replay(ev->ts);
		narrow_event(&r);
		i += ev->size;
	}
}

/* A PROC block: the process ends where the live trace ended it. */
static void proc_replay(const unsigned char *p, size_t n, size_t off)
{
	struct tf_proc pr;
	uint32_t i;

	if (n != sizeof(pr))
		bad(off, "a process block of the wrong size");
	memcpy(&pr, p, sizeof(pr));
	if (!check_tid(pr.pid) || pr.signal < 0 || pr.signal > 64)
		bad(off, "a process block that names no process");
	if (!narrow_pid(pr.pid))
		return;
	pause_replay(pr.ts);
	if (pr.flags & TF_PROC_MULTI)
		fmt.processes = fmt.pid_prefix = true;
	trace_process_end(pr.pid, pr.ts, pr.exit_status, pr.signal,
			  pr.flags & TF_PROC_CORE);
	for (i = 0; i < LTR_MAX_THREADS; i++) {
		if (slot_pid[i] == pr.pid) {
			trace_slot_freed(i);
			slot_pid[i] = 0;
		}
	}
}

/* A COUNTS block: the interposer's counters, the summary's rows. */
static void counts_load(const unsigned char *p, size_t n, size_t off)
{
	size_t k = n / sizeof(struct tf_count), i;

	if (n % sizeof(struct tf_count))
		bad(off, "a counts block of the wrong size");
	for (i = 0; i < k; i++) {
		struct tf_count r;

		memcpy(&r, p + i * sizeof(r), sizeof(r));
		if (r.fn >= LTR_MAX_FUNCS)
			bad(off, "a counter of no function");
		if (!narrow_pid(r.pid) || !tracefile_counts_recorded() ||
		    image->nretired >= LTR_MAX_RETIRED)
			continue;
		image->retired[image->nretired++] = (struct ltr_retired){
			.pid = r.pid, .fn = r.fn,
			.c = { .calls = r.calls, .errors = r.errors,
			       .total = r.total, .self = r.self,
			       .min = r.min, .max = r.max } };
	}
}

struct ltr_session *tracefile_load(const char *file)
{
	struct tf_header header, *h = &header;
	struct stat st;

	path = file;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		perror_msg_and_die("cannot read the trace file '%s' (--read)",
				   file);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		error_msg_and_die("cannot read the trace file '%s': not a regular file; give the file ltruss -w wrote",
				  file);
	size = (size_t)st.st_size;
	if (!size)
		bad(0, "the file is empty");
	memset(h, 0, sizeof(*h));
	bytes_read(h, size < sizeof(*h) ? size : sizeof(*h), 0);
	header_check(h);
	/* One block at a time: memory stays bounded, however big the file. */
	blk = xmalloc(sizeof(struct tf_block) + TF_BLOCK_MAX);
	decoded = xmalloc(DECODED_MAX);
	tf_codec_init(&codec);
	blocks_check();
	image = mmap(NULL, sizeof(*image), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (image == MAP_FAILED)
		perror_msg_and_die("cannot read the trace file '%s': no memory for its tables",
				   file);
	image->magic = LTR_SESSION_MAGIC;
	image->version = LTR_SESSION_VERSION;
	image->strsize = h->strsize;
	image->depth_limit = h->depth_limit;
	image->start_time = h->start_time;
	memcpy(image->command, h->command, sizeof(image->command));
	image->command[sizeof(image->command) - 1] = '\0';
	if (have_clock)
		clock_set(clock_rec.tsc0, clock_rec.real0,
			  clock_rec.ticks_per_ns);
	else
		clock_start(); /* cut before the first clock: this machine's */
	/* Any process of the file may be shown. */
	check_init(0, true);
	return image;
}

/* An END block: what the recording run lost, how its command ended. */
static void end_load(const unsigned char *p, size_t n, size_t off)
{
	if (n != sizeof(end_rec))
		bad(off, "an end block of the wrong size");
	memcpy(&end_rec, p, sizeof(end_rec));
}

/* What each block type does in the second pass (CLOCK: done in the first). */
static void (*const replay[TF_END + 1])(const unsigned char *p, size_t n,
					 size_t off) = {
	[TF_TABLES] = tables_load, [TF_EVENTS] = events_replay,
	[TF_PROC] = proc_replay, [TF_COUNTS] = counts_load,
	[TF_END] = end_load,
};

void tracefile_replay(void)
{
	size_t off = sizeof(struct tf_header);

	while (off < end_at) {
		const struct tf_block *b = block_at(off);

		if (!b)
			break; /* cut since the first pass */
		if (replay[b->type])
			replay[b->type]((const unsigned char *)(b + 1), b->len,
					off);
		off += sizeof(*b) + padded(b->len);
	}
	if (cut)
		trace_cut();
}

/*
 * The interposer's counters come last, just before END: a file cut short
 * (ltruss killed) has none or some of them, so its summary counts the
 * calls it holds, as a narrowed one does.
 */
bool tracefile_counts_recorded(void)
{
	return !cut && !narrow_calls();
}

void tracefile_counts_from_trace(void)
{
	image->nretired = (uint32_t)trace_counts(image->retired,
						 LTR_MAX_RETIRED);
}

bool tracefile_processes(void)
{
	return several;
}

bool tracefile_was_cut(size_t *at)
{
	*at = end_at;
	return cut;
}


void tracefile_ends(unsigned long long *dropped, uint32_t *lost)
{
	*dropped = end_rec.dropped;
	*lost = end_rec.lost_returns;
}

int tracefile_command_signal(bool *core)
{
	*core = end_rec.core;
	return end_rec.signal > 0 && end_rec.signal < 65 ? end_rec.signal : 0;
}

uint32_t tracefile_objects(void)
{
	return image->nobjects < LTR_MAX_OBJECTS ? image->nobjects
						 : LTR_MAX_OBJECTS;
}

const char *tracefile_object_path(uint32_t i)
{
	return session_string(image, image->objects[i].path);
}

const char *tracefile_object_soname(uint32_t i)
{
	return sonames[i];
}

void tracefile_unload(void)
{
	size_t i, k;

	for (i = 0; i < LTR_MAX_CAPTURES; i++) {
		if (protos[i]) {
			captures_set_proto((int32_t)i, NULL);
			proto_free(protos[i]);
			free(protos[i]);
			protos[i] = NULL;
		}
	}
	for (i = 0; i < ntypes; i++) {
		for (k = 0; k < types[i]->nenums; k++)
			free(types[i]->enums[k].name);
		for (k = 0; k < types[i]->nflags; k++)
			free(types[i]->flags[k].name);
		free(types[i]->enums);
		free(types[i]->flags);
		free(types[i]->name);
		free(types[i]);
	}
	free(types);
	types = NULL;
	strmap_clear(&type_names, NULL);
	ntypes = 0;
	for (i = 0; i < LTR_MAX_OBJECTS; i++) {
		free(ids_pending[i]);
		ids_pending[i] = NULL;
		id_seen[i] = 0;
	}
	strmap_clear(&names_interned, NULL);
	build_id_done();
	for (i = 0; i < LTR_MAX_OBJECTS; i++) {
		free(sonames[i]);
		sonames[i] = NULL;
	}
	if (image)
		munmap(image, sizeof(*image));
	if (fd >= 0)
		close(fd);
	free(blk);
	free(decoded);
	tf_codec_free(&codec);
	decoded = NULL;
	image = NULL;
	blk = NULL;
	fd = -1;
}
