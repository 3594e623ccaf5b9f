#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# programs.bats: real servers nobody here wrote run under ltruss as natively,
# serve a request, and stop; none is left running.

load helpers

# The servers run in the background under timeout (not the ltruss helper,
# a function: $! would be its subshell, which a signal does not stop).

# wait_socket PATH: wait up to 10 s for the unix socket PATH, while $server runs.
wait_socket() {
	local i
	for i in $(seq 100); do
		[ -S "$1" ] && return 0
		kill -0 "$server" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

teardown() {
	# A server whose test failed half-way is stopped, whatever happened.
	[ -n "${server:-}" ] && kill -KILL "$server" 2>/dev/null || true
	[ -n "${pgdir:-}" ] && rm -rf "$pgdir"
	true
}

@test "redis-server (jemalloc, initial-exec TLS) starts under ltruss -c, answers PING on a unix socket, shuts down" {
	command -v redis-server redis-cli >/dev/null
	timeout -k 5 60 "$LTRUSS" -c -o trace redis-server --port 0 --unixsocket "$PWD/redis.sock" \
		--save '' --daemonize no --logfile "$PWD/redis.log" </dev/null >out 2>err &
	server=$!
	wait_socket redis.sock || { cat err >&3; false; }
	[ "$(redis-cli -s redis.sock ping)" = PONG ]
	redis-cli -s redis.sock shutdown nosave || true
	status=0
	wait "$server" || status=$?
	server=
	[ "$status" -eq 0 ]
	[ ! -s err ]
	grep -q 'ready to accept connections at .*/redis.sock$' redis.log
	grep -q 'libc:epoll_wait$' trace
	grep -q ' total$' trace
}

@test "nginx under ltruss -c: its configuration test, then a request served on a unix socket and SIGTERM" {
	command -v nginx >/dev/null
	cat >nginx.conf <<-EOF
		daemon off;
		master_process off;
		pid $PWD/nginx.pid;
		error_log stderr;
		events { worker_connections 16; }
		http {
			access_log off;
			client_body_temp_path $PWD/body;
			proxy_temp_path $PWD/proxy;
			fastcgi_temp_path $PWD/fastcgi;
			uwsgi_temp_path $PWD/uwsgi;
			scgi_temp_path $PWD/scgi;
			server {
				listen unix:$PWD/nginx.sock;
				location / { return 200 "hello from nginx\n"; }
			}
		}
	EOF
	run nginx -t -c "$PWD/nginx.conf" -p "$PWD"
	assert_success
	native=$output
	run ltruss -c -o /dev/null nginx -t -c "$PWD/nginx.conf" -p "$PWD"
	assert_success
	[ "$output" = "$native" ]
	timeout -k 5 60 "$LTRUSS" -c -o trace nginx -c "$PWD/nginx.conf" -p "$PWD" </dev/null >out 2>err &
	server=$!
	wait_socket nginx.sock || { cat err >&3; false; }
	[ "$(curl -s --unix-socket nginx.sock http://localhost/)" = "hello from nginx" ]
	# To nginx itself: timeout would signal its whole process group.
	kill -TERM "$(cat nginx.pid)"
	status=0
	wait "$server" || status=$?
	server=
	[ "$status" -eq 0 ]
	grep -q ' total$' trace
}

@test "PostgreSQL: postgres --version, and initdb under ltruss -f -c (postgres run through popen and system)" {
	local pg as=()
	# Debian's layout: /usr/lib/postgresql/VERSION/bin (package postgresql).
	pg=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
	[ -x "$pg/initdb" ]
	run "$pg/postgres" --version
	assert_success
	native=$output
	run ltruss -c -o /dev/null "$pg/postgres" --version
	assert_success
	[ "$output" = "$native" ]
	# initdb refuses root: run it (and ltruss) as nobody, in a directory of its own.
	pgdir=$(mktemp -d /tmp/ltruss-pg.XXXXXX)
	chmod 755 "$pgdir"
	if [ "$(id -u)" -eq 0 ]; then
		chown nobody "$pgdir"
		as=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$pgdir")
	fi
	run_split "${as[@]}" timeout -k 5 60 "$LTRUSS" -f -c -o "$pgdir/trace" \
		"$pg/initdb" -D "$pgdir/data" -A trust -U pg --no-sync
	[ "$status" -eq 0 ]
	grep -qx 'Success. You can now start the database server using:' <<<"$out"
	[ "$(cat "$pgdir/data/PG_VERSION")" = "$(basename "$(dirname "$pg")")" ]
	grep -q ' total$' "$pgdir/trace"
}
