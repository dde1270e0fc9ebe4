"""A phone at home on a slow link is told how far behind the table it is (issue 33: "behind
by 2 s"), in a real browser. Between the browser and the table sits a plain TCP relay of
the test's (bytes passed on as they are, no HTTP of its own) that holds what the table
sends for a while once the page has loaded: a slow connection as a phone at home has one."""

from __future__ import annotations

import asyncio
import threading

from selenium.webdriver.support.ui import WebDriverWait

from shipsheet.share.exposure import Exposure, parse_public_url
from shipsheet.share.seats import PLAYER

from .phone import sample, share


class SlowRelay:
    """127.0.0.1:port -> the table; what the table sends is held ``delay`` seconds."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.delay = 0.0
        self.loop = asyncio.new_event_loop()
        self.port: int | None = None
        self._clients: set[asyncio.Task] = set()
        started = threading.Event()
        threading.Thread(target=self._run, args=(started,), daemon=True).start()
        started.wait(10)

    def _run(self, started):
        asyncio.set_event_loop(self.loop)

        async def serve():
            server = await asyncio.start_server(self._client, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            started.set()
            await server.serve_forever()
        try:
            self.loop.run_until_complete(serve())
        except (asyncio.CancelledError, RuntimeError):
            pass

    async def _client(self, reader, writer):
        self._clients.add(asyncio.current_task())
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pipe(src, dst, slow):
            try:
                while data := await src.read(65536):
                    if slow and self.delay:
                        await asyncio.sleep(self.delay)
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()
        await asyncio.gather(pipe(reader, up_writer, False), pipe(up_reader, writer, True))

    def stop(self):
        """Its connections closed on its own loop, then the loop stopped (a pipe left to the
        garbage collector would close its socket on a loop already closed)."""
        async def close_clients():
            for task in self._clients:
                task.cancel()
            await asyncio.gather(*self._clients, return_exceptions=True)
        asyncio.run_coroutine_threadsafe(close_clients(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)


def test_a_slow_connection_is_shown_as_how_far_behind_the_page_is(qtbot, browser):
    session = sample("fedcom")
    # The relay's address is the table's public one (plain HTTP will do on loopback).
    link, (blue,) = share(session, seats=[("Blue", PLAYER, ("Blue",), ())])
    relay = SlowRelay(link.port)
    try:
        link.stop()
        link.exposure = Exposure(public=parse_public_url(f"http://127.0.0.1:{relay.port}"),
                                 approve_joins=False)
        link.start(["127.0.0.1"], relay.target_port)
        browser.get("about:blank")
        browser.get(link.url(blue))

        def behind():
            return browser.execute_script(
                "var b = document.getElementById('behind'); return b.hidden ? null : b.textContent;")

        def until(predicate, timeout):
            result = {}

            def run():
                result["value"] = WebDriverWait(browser, timeout, poll_frequency=0.1).until(
                    lambda d: predicate())
            thread = threading.Thread(target=run)
            thread.start()
            qtbot.waitUntil(lambda: not thread.is_alive(), timeout=int(timeout * 1000) + 5000)
            return result.get("value")

        until(lambda: browser.execute_script(
            "return document.getElementById('conn').textContent") == "Live", 20)
        assert behind() is None
        relay.delay = 2.6  # the link slows down: the next pong comes 2.6 s late
        shown = until(behind, 20)
        assert shown.startswith("Behind by ") and shown.endswith(" s — the connection to the table is slow")
        assert int(shown.split()[2]) >= 2
        relay.delay = 0.0  # and recovers: the line goes
        until(lambda: behind() is None, 25)
    finally:
        link.stop()
        relay.stop()
