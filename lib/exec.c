/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec.c: keep tracing across exec, and into children started with an
 * environment of their own (-f).
 *
 * The interposer reaches a program only through LD_AUDIT and
 * LTRUSS_SESSION in its environment (with GLIBC_TUNABLES for the static
 * TLS the audit module costs: common/tunables.c), and attach.c removes them at
 * once so that the program sees exactly its own environment.  So an exec must
 * carry them again, into the environment the new image gets (which
 * removes them again): the exec family is hooked (lib/hooks.c binds the
 * names) and each hook calls the real function with a copy of the
 * caller's environment list plus ltruss's variables.  The caller's list
 * and environ are never changed, so a failing exec leaves the process as
 * it was.  The copy lives on the caller's stack (also right in a vfork
 * child, which runs on its parent's stack until it execs); a list too big
 * for that (over a thousand entries) gets a mapping, unmapped when the
 * exec fails, and left to the parent when a vfork child's exec succeeds.
 *
 * An exec replaces the program of the same process: it is carried with
 * or without -f (as strace and truss do).  A child that is not followed
 * (a fork or vfork child without -f) execs untraced.  With -f every child
 * is followed, whatever environment it is started with: posix_spawn and
 * posix_spawnp get the copy too.  system() and popen() spawn their shell
 * inside libc with environ itself, so while they start it environ points
 * at a copy that carries the variables.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch/x86_64/cpu.h"
#include "hooks.h"
#include "interposer.h"
#include "lock.h"
#include "objects.h"
#include "process.h"
#include "sys.h"
#include "../common/tunables.h"

/* What an exec carries: "LTRUSS_SESSION=...", and our path for LD_AUDIT. */
static char carry_session[128];
static char carry_audit[4096];
static size_t carry_audit_len;

/*
 * An environment list built for one exec or spawn, in memory off the
 * program's stack (scratch.c): an exec may come from a small one.
 */
struct carry {
	char **env;      /* the list to pass on */
	struct ltr_scratch mem; /* where it is built, if it is a copy */
	char *audit;     /* the LD_AUDIT entry it added */
	char *saved;     /* the LTRUSS_SAVED_LD_AUDIT entry it added, or NULL */
	char *user;      /* the caller's own LD_AUDIT entry it left out, or NULL */
	char *tunables;  /* the GLIBC_TUNABLES entry it added (common/tunables.c) */
	char *saved_tunables; /* LTRUSS_SAVED_GLIBC_TUNABLES it added, or NULL */
	char *user_tunables;  /* the caller's own GLIBC_TUNABLES entry, or NULL */
};

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
			   int);
typedef int (*spawn_fn)(int *, const char *, const void *, const void *,
			char *const[], char *const[]);
typedef int (*system_fn)(const char *);
typedef void *(*popen_fn)(const char *, const char *);

#define REAL(h, type) ((type)ltr_hook_real[h])


void ltr_exec_remember(const char *session, const char *audit)
{
	size_t n;

	ltr_strlcpy(carry_session, session, sizeof(carry_session));
	/* ltruss puts its interposer first in LD_AUDIT, the user's after a ':'. */
	for (n = 0; audit && audit[n] && audit[n] != ':' &&
		    n < sizeof(carry_audit) - 1; n++)
		carry_audit[n] = audit[n];
	carry_audit[n] = '\0';
	carry_audit_len = n;
}

/* Is s a variable of ltruss's, or LD_AUDIT, that the copy sets itself? */
static bool is_carried(const char *s)
{
	return ltr_env_is(s, "LD_AUDIT") || ltr_env_is(s, LTR_ENV_SESSION) ||
	       ltr_env_is(s, LTR_ENV_SAVED_AUDIT) ||
	       ltr_env_is(s, LTR_TUNABLES) ||
	       ltr_env_is(s, LTR_ENV_SAVED_TUNABLES);
}

/* Append the string s at d; returns the end of it (past its NUL if nul). */
static char *put(char *d, const char *s, bool nul)
{
	while (*s)
		*d++ = *s++;
	if (nul)
		*d++ = '\0';
	return d;
}

/*
 * Set c->env to envp without ltruss's variables, LD_AUDIT and
 * GLIBC_TUNABLES, then LD_AUDIT (our interposer first, the caller's own
 * after it, and saved for the new image to put back), GLIBC_TUNABLES
 * (common/tunables.c: the caller's own, saved likewise) and LTRUSS_SESSION.
 * When that cannot be done, c->env is envp itself: the program runs on,
 * untraced.
 */
static void carry_build(struct carry *c, char *const *envp)
{
	static char *const empty[] = { NULL };
	const char *user = NULL, *utun = NULL;
	size_t n, k = 0, need, ulen = 0, tlen = 0;
	char *s;

	if (!envp)
		envp = empty;
	c->env = (char **)envp;
	c->audit = c->saved = c->user = NULL;
	c->tunables = c->saved_tunables = c->user_tunables = NULL;
	for (n = 0; envp[n]; n++) {
		if (!user && ltr_env_is(envp[n], "LD_AUDIT"))
			user = envp[n] + sizeof("LD_AUDIT");
		if (!utun && ltr_env_is(envp[n], LTR_TUNABLES))
			utun = envp[n] + sizeof(LTR_TUNABLES);
	}
	if (user)
		c->user = (char *)user - sizeof("LD_AUDIT");
	if (user)
		ulen = ltr_strlen(user);
	if (utun) {
		c->user_tunables = (char *)utun - sizeof(LTR_TUNABLES);
		tlen = sizeof(LTR_ENV_SAVED_TUNABLES "=") + ltr_strlen(utun);
	}
	need = (n + 6) * sizeof(char *) + sizeof("LD_AUDIT=") +
	       carry_audit_len + 1 + ulen + sizeof(LTR_ENV_SAVED_AUDIT "=") +
	       ulen + ltr_tunables_size(utun) + tlen;
	s = ltr_scratch_take(&c->mem, need);
	if (!s) {
		ltr_warn("not tracing an exec'd program",
			 "no memory for its environment");
		return;
	}
	c->env = (char **)s;
	s += (n + 6) * sizeof(char *);
	for (; *envp; envp++)
		if (!is_carried(*envp))
			c->env[k++] = *envp;
	c->env[k++] = c->audit = s;
	s = put(s, "LD_AUDIT=", false);
	s = put(s, carry_audit, !user);
	if (user) {
		*s++ = ':';
		s = put(s, user, true);
		c->env[k++] = c->saved = s;
		s = put(s, LTR_ENV_SAVED_AUDIT "=", false);
		s = put(s, user, true);
	}
	c->env[k++] = c->tunables = s;
	s = ltr_tunables_merge(s, utun);
	if (utun) {
		c->env[k++] = c->saved_tunables = s;
		s = put(s, LTR_ENV_SAVED_TUNABLES "=", false);
		s = put(s, utun, true);
	}
	c->env[k++] = carry_session;
	c->env[k] = NULL;
}

/* Give back what carry_build took (the exec failed); errno is untouched. */
static void carry_done(struct carry *c)
{
	ltr_scratch_give(&c->mem);
}

/*
 * Is the session carried into what this process execs?  Into the next
 * program of a traced process, yes; a child that is not followed (fork
 * or vfork without -f) runs untraced, and so does what it execs.
 */
static bool exec_carries(void)
{
	if (!ltr_session || !ltr_flags || !carry_session[0] || ltr_forked() ||
	    ltr_creds_left_here())
		return false;
	return (ltr_flags & LTR_F_FOLLOW) || ltr_process_is_self();
}

/* Is the session carried into the children this process spawns (-f)? */
static bool spawn_carries(void)
{
	return (ltr_flags & LTR_F_FOLLOW) && exec_carries();
}

/* The environment list for an exec or spawn: envp, or a copy carrying the session. */
static char **carry_env(struct carry *c, char *const *envp, bool carries)
{
	c->mem.p = NULL;
	c->mem.mapped = 0;
	if (!carries) {
		c->env = (char **)envp;
		return c->env;
	}
	carry_build(c, envp);
	return c->env;
}

/*
 * The program's environ (its libc's, or the program's copy of it); the
 * array the process started with (sys.c) if it cannot be found.
 */
static char ***program_environ(void)
{
	static char ***env;

	if (!env)
		env = ltr_libc_data("__environ");
	return env ? env : &ltr_environ;
}

/* The real function name of the program's libc (cached in *cache). */
static void *libc_real(void **cache, const char *name)
{
	if (!*cache)
		*cache = ltr_libc_function(name);
	return *cache;
}

/* Has path a '/' (a search for it by execvp looks nowhere else)? */
static bool has_slash(const char *path)
{
	for (; path && *path; path++)
		if (*path == '/')
			return true;
	return false;
}

/* The program's PATH (execvp searches it, whatever environment it passes on), or NULL. */
static const char *program_path(void)
{
	char **e;

	for (e = *program_environ(); e && *e; e++)
		if (ltr_env_is(*e, "PATH"))
			return *e + 5;
	return NULL;
}

/*
 * Will the program at path (searched for on PATH when search) load the
 * interposer, should the session be carried into it (exec-check.c)?
 */
static bool program_carries(const char *path, bool search)
{
	return search && !has_slash(path)
		       ? ltr_exec_search_carries(path, program_path())
		       : ltr_exec_carries_into(AT_FDCWD, path);
}

/* execve(path, argv, envp), or execvpe when search, with environment c. */
static int exec_path(const char *path, char *const argv[], char *const envp[],
		     bool search)
{
	static void *real_execve, *real_execvpe;
	struct carry c;
	execve_fn fn = libc_real(search ? &real_execvpe : &real_execve,
				 search ? "execvpe" : "execve");
	int r;

	ltr_vfork_child_leaving(LTR_END_EXEC);
	r = fn(path, argv, carry_env(&c, envp, exec_carries() &&
				     program_carries(path, search)));
	carry_done(&c);
	return r;
}

int ltr_hook_execve(const char *path, char *const argv[], char *const envp[])
{
	ltr_hook_note(LTR_H_EXECVE, (uint64_t)path, (uint64_t)argv,
		      (uint64_t)envp);
	return exec_path(path, argv, envp, false);
}

int ltr_hook_execvpe(const char *file, char *const argv[], char *const envp[])
{
	ltr_hook_note(LTR_H_EXECVPE, (uint64_t)file, (uint64_t)argv,
		      (uint64_t)envp);
	return exec_path(file, argv, envp, true);
}

int ltr_hook_execv(const char *path, char *const argv[])
{
	char ***env = program_environ();

	ltr_hook_note(LTR_H_EXECV, (uint64_t)path, (uint64_t)argv, 0);
	return exec_path(path, argv, *env, false);
}

int ltr_hook_execvp(const char *file, char *const argv[])
{
	char ***env = program_environ();

	ltr_hook_note(LTR_H_EXECVP, (uint64_t)file, (uint64_t)argv, 0);
	return exec_path(file, argv, *env, true);
}

/*
 * The execl family (hook h), as libc writes it: the arguments after arg
 * into an array on the stack, then execve or execvpe (search) with
 * environ, or with the list that follows them (with_envp: execle).
 */
static int execl_args(enum ltr_hook h, const char *first, const char *arg,
		      va_list ap, bool with_envp, bool search)
{
	char ***env = program_environ();
	char *const *envp = *env;
	size_t argc = 1, i;
	va_list count;

	va_copy(count, ap);
	while (va_arg(count, char *))
		argc++;
	va_end(count);

	char *argv[argc + 1];

	argv[0] = (char *)arg;
	for (i = 1; i <= argc; i++)
		argv[i] = va_arg(ap, char *);
	if (with_envp)
		envp = va_arg(ap, char *const *);
	ltr_hook_note(h, (uint64_t)first, (uint64_t)arg, 0);
	return exec_path(first, argv, envp, search);
}

int ltr_hook_execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = execl_args(LTR_H_EXECL, path, arg, ap, false, false);
	va_end(ap);
	return r;
}

int ltr_hook_execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = execl_args(LTR_H_EXECLP, file, arg, ap, false, true);
	va_end(ap);
	return r;
}

int ltr_hook_execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = execl_args(LTR_H_EXECLE, path, arg, ap, true, false);
	va_end(ap);
	return r;
}

int ltr_hook_fexecve(int fd, char *const argv[], char *const envp[])
{
	struct carry c;
	int r;

	ltr_hook_note(LTR_H_FEXECVE, (uint64_t)fd, (uint64_t)argv,
		      (uint64_t)envp);
	ltr_vfork_child_leaving(LTR_END_EXEC);
	r = REAL(LTR_H_FEXECVE, fexecve_fn)(fd, argv,
		carry_env(&c, envp, exec_carries() &&
				    ltr_exec_carries_into(fd, "")));
	carry_done(&c);
	return r;
}

int ltr_hook_execveat(int dirfd, const char *path, char *const argv[],
		      char *const envp[], int flags)
{
	struct ltr_regs regs = { .rdi = (uint64_t)dirfd, .rsi = (uint64_t)path,
				 .rdx = (uint64_t)argv, .rcx = (uint64_t)envp,
				 .r8 = (uint64_t)flags };
	struct carry c;
	int r;

	ltr_hook_note_regs(LTR_H_EXECVEAT, &regs);
	ltr_vfork_child_leaving(LTR_END_EXEC);
	r = REAL(LTR_H_EXECVEAT, execveat_fn)(dirfd, path, argv,
		carry_env(&c, envp, exec_carries() &&
				    ltr_exec_carries_into(dirfd, path)), flags);
	carry_done(&c);
	return r;
}

/* posix_spawn or posix_spawnp (hook h): the child gets the session with -f. */
static int spawn(enum ltr_hook h, int *pid, const char *path, const void *fa,
		 const void *attr, char *const argv[], char *const envp[])
{
	struct ltr_regs regs = { .rdi = (uint64_t)pid, .rsi = (uint64_t)path,
				 .rdx = (uint64_t)fa, .rcx = (uint64_t)attr,
				 .r8 = (uint64_t)argv, .r9 = (uint64_t)envp };
	struct carry c;
	int r;

	ltr_hook_note_regs(h, &regs);
	r = REAL(h, spawn_fn)(pid, path, fa, attr, argv,
			      carry_env(&c, envp, spawn_carries() &&
					program_carries(path,
							h == LTR_H_SPAWNP)));
	carry_done(&c);
	return r;
}

int ltr_hook_posix_spawn(int *pid, const char *path, const void *fa,
			 const void *attr, char *const argv[],
			 char *const envp[])
{
	return spawn(LTR_H_SPAWN, pid, path, fa, attr, argv, envp);
}

int ltr_hook_posix_spawnp(int *pid, const char *file, const void *fa,
			  const void *attr, char *const argv[],
			  char *const envp[])
{
	return spawn(LTR_H_SPAWNP, pid, file, fa, attr, argv, envp);
}

/*
 * system() and popen() read environ inside libc (selected, they are traced
 * whole: lib/hooks.c has them call their stub).  While one of them runs,
 * environ is a copy that carries the session; threads running them at
 * once share one copy, and the last one out puts environ back (unless
 * the program replaced environ meanwhile: then it keeps its own list,
 * without the entries the copy added).
 *
 * system() holds that window until its shell has ended, and the program's
 * other threads run on: one of them may fork.  Its child must see the
 * program's own environment, and must not find the swap lock held by a
 * thread it does not have.  So the program's libc runs a child handler
 * of ours in every child of fork() before fork returns there, before any
 * of the program's code: environ back to the saved list if it is the copy,
 * the swap state reset.  The audit module's own pthread_atfork would never
 * fire (its libc is not the program's): the handler is registered with
 * the program's __register_atfork.  A vfork child (posix_spawn, system and
 * popen themselves) runs no handler and shares its parent's memory, which
 * it must not reset; a child of _Fork or of a raw clone runs no handler
 * either: a followed one resets the swap state when it notices its fork
 * (lib/thread.c), which may be after its code has read environ.
 */
static int swap_lock;
static unsigned swap_users;
static char **swap_saved;
static char **swap_env; /* the copy environ points at, NULL when none */
static struct carry swap_carry;

/*
 * The program replaced environ while it was the copy (setenv or putenv,
 * in another thread): its new list holds the entries the copy added, and
 * they point into the copy.  Take them out of that list in place (as
 * attach.c does at start), the caller's own LD_AUDIT and GLIBC_TUNABLES
 * entries back in ours.
 */
static void carry_strip(const struct carry *c, char **env)
{
	char **r, **w;

	for (r = w = env; env && *r; r++) {
		if (*r == c->audit) {
			if (c->user)
				*w++ = c->user;
		} else if (*r == c->tunables) {
			if (c->user_tunables)
				*w++ = c->user_tunables;
		} else if (*r != c->saved && *r != c->saved_tunables &&
			   *r != carry_session) {
			*w++ = *r;
		}
	}
	if (env)
		*w = NULL;
}

/* environ back to the program's own list, and the copy gone (swap_lock held). */
static void environ_restore(char ***env)
{
	if (*env == swap_env)
		__atomic_store_n(env, swap_saved, __ATOMIC_RELEASE);
	else
		carry_strip(&swap_carry, *env);
	__atomic_store_n(&swap_env, NULL, __ATOMIC_RELEASE);
	carry_done(&swap_carry);
}

/* Point environ at a copy carrying the session; false if not done. */
static bool environ_carry(void)
{
	char ***env = program_environ();

	if (!spawn_carries())
		return false;
	ltr_lock(&swap_lock);
	if (swap_users++ == 0) {
		swap_saved = *env;
		carry_build(&swap_carry, swap_saved);
		/* A fork that sees environ at the copy sees swap_saved too. */
		__atomic_store_n(&swap_env, swap_carry.env, __ATOMIC_RELEASE);
		__atomic_store_n(env, swap_env, __ATOMIC_RELEASE);
	}
	ltr_unlock(&swap_lock);
	return true;
}

/* Undo environ_carry, once its last user is done. */
static void environ_uncarry(void)
{
	char ***env = program_environ();

	ltr_lock(&swap_lock);
	if (--swap_users == 0)
		environ_restore(env);
	ltr_unlock(&swap_lock);
}

void ltr_exec_after_fork(void)
{
	/* swap_env is set once the copy is whole, and cleared before it goes. */
	if (swap_env)
		environ_restore(program_environ());
	swap_users = 0;
	ltr_unlock(&swap_lock);
}

void ltr_exec_watch_fork(void)
{
	int (*register_atfork)(void (*)(void), void (*)(void), void (*)(void),
			       void *);

	/* Only -f carries the session into system() and popen(). */
	if (!(ltr_flags & LTR_F_FOLLOW))
		return;
	register_atfork = ltr_libc_function("__register_atfork");
	/* No DSO handle: never unregistered, as the interposer stays. */
	if (register_atfork)
		register_atfork(NULL, NULL, ltr_exec_after_fork, NULL);
}

int ltr_hook_system(const char *command)
{
	bool carried;
	int r;

	carried = environ_carry();
	r = REAL(LTR_H_SYSTEM, system_fn)(command);
	if (carried)
		environ_uncarry();
	return r;
}

void *ltr_hook_popen(const char *command, const char *mode)
{
	bool carried;
	void *r;

	carried = environ_carry();
	r = REAL(LTR_H_POPEN, popen_fn)(command, mode);
	if (carried)
		environ_uncarry();
	return r;
}
