"""`tablebot` console script: serve the app with gunicorn's master and waitress in each of its worker
processes (threads in each), or with Flask's development server under `--debug`.

Why several processes with threads: the solvers are pure Python, so a request's CPU time holds its
process's GIL; several processes answer solver requests side by side, where threads in one process
would wait for each other. Threads in each process keep the many small requests (a table's version
polled every second by each phone, static files, saves) from queueing behind a solver.
Why waitress in the workers (assistant/serving.py): it reads every request in full before a thread
takes it, so slow phones and idle keep-alive connections hold no thread; gunicorn's own threaded
worker gives a connection to a thread that then waits for its bytes, and ten slow clients stop it.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

DEFAULT_THREADS = 4
WORKER_CONNECTIONS = 1000  # open connections per worker: phones following tables, slow ones included


def default_workers() -> int:
    return max(2, min(os.cpu_count() or 1, 8))


def build_app(config: dict | None = None):
    """Create the app once, in the server's first process: the schema is made here, before any worker
    exists; then every worker forks from it, sharing its imported modules and data."""
    from . import create_app

    app = create_app(config)
    # workers must not share the first process's database connections: each opens its own
    app.extensions["tablebot_db"].dispose()
    # what is built now lives as long as the process: keep it out of the garbage collector's scans,
    # which otherwise pause a worker for about 0.1 s now and then (and copy its shared memory pages)
    gc.collect()
    gc.freeze()
    return app


def gunicorn_options(bind: list[str], workers: int, threads: int) -> dict:
    return {
        "bind": bind,
        "workers": workers,
        "threads": threads,
        "worker_class": "assistant.serving.WaitressWorker",
        "worker_connections": WORKER_CONNECTIONS,
        "preload_app": True,
        "timeout": 60,  # a worker stuck this long (a solver gone wrong) is replaced
        "graceful_timeout": 10,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "tablebot",
        "control_socket_disable": True,  # gunicorn 24+: no runtime control socket in the home folder
    }


def serve(app, bind: list[str], workers: int, threads: int) -> None:
    """Run gunicorn in this process (it becomes the master) with `app` already built."""
    from gunicorn.app.base import BaseApplication

    def post_fork(_server, _worker) -> None:
        # the pool is empty after build_app; should anything have connected since, the worker forgets
        # those connections without closing them (closing would end the master's too)
        app.extensions["tablebot_db"].dispose(close=False)
        # the rules search's sentence model, loaded in each worker after the fork (the first process builds the
        # index but loads no shared model)
        from .rules import semantic
        semantic.warm_up()

    class Server(BaseApplication):
        def load_config(self) -> None:
            for key, value in {**gunicorn_options(bind, workers, threads), "post_fork": post_fork}.items():
                if key in self.cfg.settings:  # settings newer than the installed gunicorn are skipped
                    self.cfg.set(key, value)

        def load(self):
            return app

    Server().run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="tablebot", description="Start the Tablebot web app.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="address to listen on (0.0.0.0 to reach it from phones on your Wi-Fi)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "5000")))
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="worker processes (default: the number of cores, 2 to 8)")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="threads in each worker")
    parser.add_argument("--bind", action="append", metavar="ADDRESS",
                        help="instead of --host/--port, what gunicorn listens on: unix:/path/to.sock behind a "
                             "reverse proxy, or fd://N for a socket the caller opened; may be repeated")
    parser.add_argument("--debug", action="store_true",
                        help="Flask's development server instead: reloads on code changes, shows tracebacks")
    args = parser.parse_args(argv)
    if args.workers < 1 or args.threads < 1:
        parser.error("--workers and --threads take a number of at least 1")

    from sqlalchemy.engine import make_url

    app = build_app({"DEBUG": True} if args.debug else None)
    data = make_url(app.config["DATABASE_URL"]).render_as_string(hide_password=True)
    server = "development server" if args.debug else f"gunicorn + waitress, {args.workers} workers x {args.threads} threads"
    host = f"[{args.host}]" if ":" in args.host else args.host
    where = ", ".join(args.bind) if args.bind and not args.debug else f"http://{host}:{args.port}/"
    print(f"Tablebot on {where}  ({server}; data: {data})", file=sys.stderr, flush=True)
    if args.debug:
        app.run(host=args.host, port=args.port, debug=True, threaded=True)
    else:
        serve(app, args.bind or [f"{host}:{args.port}"], args.workers, args.threads)


if __name__ == "__main__":
    main()
