"""A switch's events (digest messages, packets sent to its CPU port) for the P4Runtime server:
read by a thread of its own on a channel of its own, and handed to the listener of their kind,
which turns them into stream messages for the controllers.  Where the switch swaps another
program in, its `program_swapped` event says where the listeners of that program's P4Info take
over: those the server expects for its own swap, or for another client's (`p4odp swap`) those
its `on_unexpected_swap` gives."""

from __future__ import annotations

import threading
from collections import deque
from typing import Callable, Optional, Protocol

from p4odp.controlplane.channel import ChannelError, CommandError, SwitchChannel

__all__ = ["EventListener", "SwitchEvents"]

TICK = 0.005  # seconds between the listeners' ticks while no event comes
EVENTS_PER_TICK = 1000  # events taken between two ticks: a flood of them delays no digest list


class EventListener(Protocol):
    events: str  # the kind of event it listens to: one of SwitchChannel.EVENTS
    words: tuple[str, ...]  # the first words of the event lines it takes

    def wanted(self) -> bool:
        """Whether the switch should send these events now."""

    def take(self, event: str) -> None:
        """One event line (called by the events' thread)."""

    def tick(self) -> None:
        """Called every TICK at most (by the events' thread): for what is due by time."""

    def flush(self) -> None:
        """Its program was swapped out: send what it holds back (by the events' thread)."""


class SwitchEvents:
    def __init__(self, switch: str, listeners: list[EventListener],
                 on_unexpected_swap: Callable[[], list[EventListener]]) -> None:
        """The events of the switch at control channel address `switch`, for `listeners`; at a
        swap no one here expected (another client's), for those `on_unexpected_swap()` gives (it
        runs on this object's thread).  ChannelError when the switch cannot be reached."""
        self.listeners = listeners
        self.on_unexpected_swap = on_unexpected_swap
        self.takers = self._takers(listeners)
        self.failure: Optional[Exception] = None  # why the thread stopped receiving, if it did
        self.stopping = False
        self.changed = threading.Condition()
        self.asked = 0  # settle() calls, counted
        self.settled = 0  # of those, the last whose listeners' wishes the switch has been told
        self.adopting = False  # in on_unexpected_swap: what a settle() waits for is gone with the old program
        # The listeners of the programs being swapped in, oldest first: each takes over at its swap's event.
        self.swaps: deque[list[EventListener]] = deque()
        self.channel = SwitchChannel(switch, timeout=None)
        self.channel.listen("swap")
        self.thread = threading.Thread(target=self._run, daemon=True, name="p4odp-events")
        self.thread.start()

    @staticmethod
    def _takers(listeners: list[EventListener]) -> dict:
        return {word: listener for listener in listeners for word in listener.words}

    def expect_swap(self, listeners: list[EventListener]) -> None:
        """These listeners, of the same kinds, take the events after the switch's next
        program_swapped event (the events before it are the old program's): those of the
        program about to be swapped in.  Called before swap_configs, so that the event cannot
        come first; withdraw_swap() when the switch refuses it."""
        with self.changed:
            self.swaps.append(listeners)

    def withdraw_swap(self) -> None:
        with self.changed:
            self.swaps.pop()
            self.changed.notify_all()

    def _swapped(self) -> None:
        """At a program_swapped event: the listeners expected take over (at another client's swap,
        those of the program it swapped in), the old ones send what they gathered."""
        with self.changed:
            listeners = self.swaps.popleft() if self.swaps else None
            # The callback may wait for a request that waits in settle() (the server's lock).
            self.adopting = listeners is None
            self.changed.notify_all()
        if listeners is None:
            try:
                listeners = self.on_unexpected_swap()
            finally:
                with self.changed:
                    self.adopting = False
        for listener in self.listeners:
            listener.flush()
        self.listeners = listeners
        self.takers = self._takers(listeners)

    def settle(self, timeout: float = 5) -> None:
        """Return once the switch has been told what the listeners want now (a digest a controller
        has just configured is sent for every packet from here on), or another client's program
        replaces theirs."""
        with self.changed:
            self.asked += 1
            asked = self.asked
            self.changed.wait_for(lambda: self.settled >= asked or self.failure is not None or self.adopting,
                                  timeout)

    def stop(self) -> None:
        self.stopping = True
        self.thread.join()
        self.channel.close()

    def _run(self) -> None:
        listening = {listener.events: False for listener in self.listeners}
        try:
            while not self.stopping:
                with self.changed:
                    asked = self.asked
                for listener in self.listeners:
                    wanted = listener.wanted()
                    if wanted != listening[listener.events]:
                        self.channel.listen(listener.events, wanted)
                        listening[listener.events] = wanted
                with self.changed:
                    if not self.swaps:  # else the listeners told are not yet the ones settle() means
                        self.settled = asked
                        self.changed.notify_all()
                timeout = TICK  # for the first event; those after it are taken while they are there
                for _ in range(EVENTS_PER_TICK):
                    event = self.channel.next_event(timeout=timeout)
                    if event is None:
                        break
                    timeout = 0
                    if event == "program_swapped":
                        self._swapped()
                        continue
                    taker = self.takers.get(event.partition(" ")[0])
                    if taker is not None:  # events_missed: the specification allows losing both kinds
                        taker.take(event)
                for listener in self.listeners:
                    listener.tick()
        except (ChannelError, CommandError) as err:  # the switch is gone, dropped this client or cannot send
            # these events (one built before them): no more events
            with self.changed:
                self.failure = err
                self.changed.notify_all()
