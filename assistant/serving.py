"""The gunicorn worker that serves with waitress: gunicorn's master (preloaded app, worker processes
restarted when they die or stop answering, graceful stop, `--bind` of every kind) around waitress's
way of reading requests.

Why: a thread-per-connection worker (gunicorn's gthread) gives a connection to one of its threads as
soon as it has a byte to read, and that thread then waits for the rest of the request. A phone on a
weak Wi-Fi that sends its request slowly, or a few connections that send a byte now and then, hold
every thread, and the server stops answering everyone. Waitress reads each request in full (headers
and body, buffered) in one thread that watches every connection at once, and only then hands it to
an application thread; a slow client costs a socket and a few KiB, never a thread. Each worker takes
up to `worker_connections` connections at once (waitress's own default of 100 would turn phones away).
"""
from __future__ import annotations

import logging
import os
import resource
import time

from gunicorn.workers.base import Worker

# the app answers a body over 64 KiB with its own 413; waitress stops reading far larger ones itself
MAX_REQUEST_BODY = 1024 * 1024
IDLE_CONNECTION_SECONDS = 60  # an idle connection (no request under way) is closed after this long
HEARTBEAT_SECONDS = 1.0


def waitress_options(threads: int, connections: int) -> dict:
    return {
        "threads": threads,
        "connection_limit": connections,
        "backlog": 2048,
        "channel_timeout": IDLE_CONNECTION_SECONDS,
        "cleanup_interval": 10,
        "max_request_body_size": MAX_REQUEST_BODY,
        # what a connection may hold before its request is whole: 1,000 slow connections cost at most
        # 32 MiB a worker (waitress's default of 256 KiB would allow 256 MiB)
        "max_request_header_size": 32 * 1024,
        "ident": "",  # no Server header naming the software
        "asyncore_use_poll": True,  # select() cannot watch a socket numbered over 1023
        "asyncore_loop_timeout": HEARTBEAT_SECONDS,
        "expose_tracebacks": False,
        # X-Forwarded-For and the like reach the app, whose TABLEBOT_PROXY_HOPS says how many proxies
        # to trust (waitress would otherwise drop them all, and every phone behind a reverse proxy
        # would count as the proxy's address for the rate limits and the storage budget)
        "clear_untrusted_proxy_headers": False,
    }


def _raise_open_file_limit(wanted: int) -> None:
    """Each connection is an open file: make room for the connection limit when the soft limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def keep_alive_channel():
    """waitress's connection class, keeping HTTP/1.1 connections open after answers that have no body.

    waitress 3 closes the connection after any answer without a Content-Length, and it drops that
    header from a 304 or 204: every poll of an unchanged table (a 304, once a second from each open
    page) would cost a new connection. Such an answer has no body by definition, so nothing is left
    for the client to wait for: the connection stays open unless the client asked to close it."""
    from waitress.channel import HTTPChannel
    from waitress.task import WSGITask

    class KeepAliveTask(WSGITask):
        def set_close_on_finish(self) -> None:
            if (self.version == "1.1" and not self.has_body
                    and self.request.headers.get("CONNECTION", "").lower() != "close"):
                return
            super().set_close_on_finish()

    class KeepAliveChannel(HTTPChannel):
        task_class = KeepAliveTask

    return KeepAliveChannel


class WaitressWorker(Worker):
    """One gunicorn worker process: waitress on the master's listening sockets, `cfg.threads`
    application threads, up to `cfg.worker_connections` connections."""

    def run(self) -> None:
        from waitress import wasyncore
        from waitress.channel import HTTPChannel
        from waitress.server import BaseWSGIServer, create_server

        # a task queue deeper than the idle threads is normal under load, not worth a line per request
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        if getattr(self.wsgi, "config", {}).get("ROBOTARIAT_GAMES_HELPER"):
            from solvers.robotariat import games_helper

            games_helper.shared().start()  # this worker's own, ready before a phone asks for a forecast
        connections = self.cfg.worker_connections
        _raise_open_file_limit(connections + 64)
        sock_map: dict = {}
        server = create_server(self.wsgi, map=sock_map, sockets=[s.sock for s in self.sockets],
                               **waitress_options(self.cfg.threads, connections))
        channel = keep_alive_channel()
        for item in sock_map.values():
            if isinstance(item, BaseWSGIServer):
                item.channel_class = channel
        last_beat = 0.0
        while self.alive:
            now = time.monotonic()
            if now - last_beat >= HEARTBEAT_SECONDS / 2:
                self.notify()  # the master replaces a worker whose loop stops for `timeout` seconds
                last_beat = now
            if self.ppid != os.getppid():
                self.log.info("Parent changed, shutting down: %s", self)
                break
            wasyncore.loop(timeout=HEARTBEAT_SECONDS, map=sock_map, use_poll=True, count=1)

        # graceful stop: take no new connection, finish the requests under way (and send their
        # answers) for up to graceful_timeout seconds, then close everything
        for item in list(sock_map.values()):
            if isinstance(item, BaseWSGIServer):
                item.accepting = False
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while time.monotonic() < deadline and any(
                isinstance(c, HTTPChannel) and (c.requests or c.total_outbufs_len) for c in list(sock_map.values())):
            self.notify()
            wasyncore.loop(timeout=0.1, map=sock_map, use_poll=True, count=1)
        server.task_dispatcher.shutdown(timeout=1)
        wasyncore.close_all(sock_map)
