//! The server's calls in flight, their cap, and how they end when the
//! server does.
//!
//! Every `tools/call` that gets past the argument cap takes a [`Slot`]; at
//! most `max_calls` exist at once, and a call over that gets a clear error
//! at once (it does not queue: a queue would hold each waiting call's
//! arguments). When the transport closes (stdin at EOF, the HTTP listener
//! told to stop) or the server gets SIGTERM or SIGINT, [`Lifecycle::stop`]
//! refuses new calls, gives the ones in flight up to the drain period to
//! finish (and, over stdio, the ones already read but not yet started:
//! the reader counts each `tools/call` it hands on, the handler each that
//! arrives, and those read before the stop may still start), then cancels
//! each with the reason: its process group gets
//! SIGTERM, then SIGKILL after the grace period, and its outcome record says
//! `cancelled` with `cancel_reason`. The server waits for those records,
//! never longer than the grace period plus a margin, and exits.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// Default cap on one call's `arguments`, in bytes of JSON text.
pub const MAX_ARGUMENT_BYTES: usize = 1024 * 1024;
/// Default cap on the JSON values in one call's `arguments`: a parsed
/// value costs memory per value, whatever its bytes, so tiny values
/// (`[1,1,1,...]`) need a cap of their own (docs/security.md).
pub const MAX_ARGUMENT_VALUES: usize = 16 * 1024;
/// Default cap on calls running at once.
pub const MAX_CALLS: usize = 8;

/// Where the server is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Running,
    /// No new call starts; the ones in flight may finish.
    Draining(&'static str),
    /// Every call in flight is cancelled, with this reason.
    Cancelling(&'static str),
}

/// Why a call could not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `max_calls` calls are already running.
    Busy { limit: usize },
    /// The server is stopping.
    Stopping(&'static str),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Busy { limit } => write!(
                f,
                "the server is already running its limit of {limit} calls at once; \
                 retry when one has finished"
            ),
            Refusal::Stopping(reason) => {
                write!(f, "the server is shutting down ({reason}); nothing was run")
            }
        }
    }
}

struct Shared {
    phase: watch::Sender<Phase>,
    counts: watch::Sender<Counts>,
    max_calls: usize,
}

/// The calls the server knows of, by where they are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    /// Holding a [`Slot`]: running, or about to.
    in_flight: usize,
    /// `tools/call` requests read from the transport ([`Lifecycle::read_call`]).
    read: usize,
    /// Of those, the ones that have reached the handler ([`Lifecycle::arrive`]).
    arrived: usize,
    /// Read before the stop and not yet arrived: a drain waits for them.
    queued: usize,
    /// Arrived during a drain, let in, and not yet begun or given up.
    admitted: usize,
}

impl Counts {
    fn settled(&self) -> bool {
        self.in_flight == 0 && self.queued == 0 && self.admitted == 0
    }
}

/// Shared by every clone of the server.
#[derive(Clone)]
pub struct Lifecycle {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Lifecycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lifecycle")
            .field("phase", &*self.shared.phase.borrow())
            .field("counts", &*self.shared.counts.borrow())
            .finish()
    }
}

/// A running call's place; the count goes down when it is dropped.
pub struct Slot {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Slot")
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.shared
            .counts
            .send_modify(|counts| counts.in_flight = counts.in_flight.saturating_sub(1));
    }
}

/// A call that has reached the handler: whether it was read (or arrived)
/// before the server began to stop, so that a drain lets it start.
pub struct Arrival {
    shared: Arc<Shared>,
    /// Counted in `admitted` until it begins or is dropped.
    admitted: bool,
}

impl std::fmt::Debug for Arrival {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arrival")
            .field("admitted", &self.admitted)
            .finish()
    }
}

impl Drop for Arrival {
    fn drop(&mut self) {
        if self.admitted {
            self.shared
                .counts
                .send_modify(|counts| counts.admitted = counts.admitted.saturating_sub(1));
        }
    }
}

impl Lifecycle {
    pub fn new(max_calls: usize) -> Self {
        Self {
            shared: Arc::new(Shared {
                phase: watch::Sender::new(Phase::Running),
                counts: watch::Sender::new(Counts::default()),
                max_calls: max_calls.max(1),
            }),
        }
    }

    pub fn phase(&self) -> Phase {
        *self.shared.phase.borrow()
    }

    pub fn in_flight(&self) -> usize {
        self.shared.counts.borrow().in_flight
    }

    /// The transport has read a `tools/call` request (stdio's framing
    /// counts them as they go to rmcp).
    pub fn read_call(&self) {
        self.shared
            .counts
            .send_modify(|counts| counts.read = counts.read.saturating_add(1));
    }

    /// A `tools/call` has reached the handler (or rmcp's refusal of its
    /// params). During a drain, one that was read before the stop is let
    /// in: it may begin, and the drain waits for it.
    pub fn arrive(&self) -> Arrival {
        let mut admitted = false;
        self.shared.counts.send_modify(|counts| {
            counts.arrived = counts.arrived.saturating_add(1);
            // Read under the counts' lock, as `stop` changes it.
            let phase = *self.shared.phase.borrow();
            if counts.queued > 0 {
                counts.queued -= 1;
                admitted = matches!(phase, Phase::Draining(_));
            } else {
                // Arrived before the stop: a stop that comes before it
                // begins must let it begin and wait for it.
                admitted = phase == Phase::Running;
            }
            if admitted {
                counts.admitted += 1;
            }
        });
        Arrival {
            shared: Arc::clone(&self.shared),
            admitted,
        }
    }

    /// A slot for one call, or why not. While the server drains, only a
    /// call read before the stop gets one.
    pub fn begin(&self, mut arrival: Arrival) -> Result<Slot, Refusal> {
        match self.phase() {
            Phase::Running => {}
            Phase::Draining(_) if arrival.admitted => {}
            Phase::Draining(reason) | Phase::Cancelling(reason) => {
                return Err(Refusal::Stopping(reason));
            }
        }
        let limit = self.shared.max_calls;
        let mut taken = false;
        let admitted = std::mem::take(&mut arrival.admitted);
        self.shared.counts.send_if_modified(|counts| {
            if counts.in_flight < limit {
                counts.in_flight += 1;
                taken = true;
            }
            if admitted {
                // From let in to running (or refused), in one step.
                counts.admitted = counts.admitted.saturating_sub(1);
            }
            taken || admitted
        });
        if taken {
            Ok(Slot {
                shared: Arc::clone(&self.shared),
            })
        } else {
            Err(Refusal::Busy { limit })
        }
    }

    /// Resolves with the reason once the calls in flight are to be
    /// cancelled.
    pub async fn cancelled(&self) -> &'static str {
        let mut phase = self.shared.phase.subscribe();
        loop {
            if let Phase::Cancelling(reason) = *phase.borrow_and_update() {
                return reason;
            }
            if phase.changed().await.is_err() {
                // The sender lives as long as `self`.
                std::future::pending::<()>().await;
            }
        }
    }

    /// Resolves once [`Lifecycle::stop`] has been called (draining or
    /// cancelling).
    pub async fn stopping(&self) {
        let mut phase = self.shared.phase.subscribe();
        while *phase.borrow_and_update() == Phase::Running {
            if phase.changed().await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }

    /// Waits until no call is in flight, queued or let in, or `limit` has
    /// passed; true when none is left.
    async fn settled(&self, limit: Duration) -> bool {
        let mut counts = self.shared.counts.subscribe();
        tokio::time::timeout(limit, counts.wait_for(Counts::settled))
            .await
            .is_ok_and(|waited| waited.is_ok())
    }

    /// Stops the server's calls: no new one starts; those in flight get
    /// `drain` to finish, then are cancelled with `reason` and given
    /// `grace` plus a margin to end (their group is killed after `grace`)
    /// and write their records. Returns how many were still running when
    /// it gave up waiting (0 when every call ended).
    pub async fn stop(&self, reason: &'static str, drain: Duration, grace: Duration) -> usize {
        // The calls read and not yet arrived are queued: a drain lets them
        // start. Counted and phased under one lock, so that a call
        // arriving now is either queued or sees the drain.
        self.shared.counts.send_modify(|counts| {
            self.shared.phase.send_if_modified(|phase| {
                if *phase == Phase::Running {
                    *phase = Phase::Draining(reason);
                    counts.queued = if drain.is_zero() {
                        0
                    } else {
                        counts.read.saturating_sub(counts.arrived)
                    };
                    true
                } else {
                    false
                }
            });
        });
        let reason = match self.phase() {
            Phase::Draining(first) | Phase::Cancelling(first) => first,
            Phase::Running => reason,
        };
        if !drain.is_zero() && self.settled(drain).await {
            return 0;
        }
        self.shared.counts.send_modify(|counts| {
            // What has not started by now never will.
            counts.queued = 0;
            self.shared.phase.send_if_modified(|phase| {
                if matches!(phase, Phase::Cancelling(_)) {
                    false
                } else {
                    *phase = Phase::Cancelling(reason);
                    true
                }
            });
        });
        // The watchdog notices a cancellation within 50 ms, the group gets
        // `grace` after SIGTERM, and the record is one write: a margin of
        // 800 ms keeps the whole stop within grace + 1 s.
        if self.settled(grace + Duration::from_millis(800)).await {
            0
        } else {
            self.in_flight()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn slots_are_capped_and_given_back() {
        let lifecycle = Lifecycle::new(2);
        let first = lifecycle.begin(lifecycle.arrive()).unwrap();
        let _second = lifecycle.begin(lifecycle.arrive()).unwrap();
        assert_eq!(
            lifecycle.begin(lifecycle.arrive()).unwrap_err(),
            Refusal::Busy { limit: 2 }
        );
        drop(first);
        assert_eq!(lifecycle.in_flight(), 1);
        assert!(lifecycle.begin(lifecycle.arrive()).is_ok());
    }

    #[test]
    fn stop_cancels_what_is_running_and_refuses_new_calls() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            let slot = lifecycle.begin(lifecycle.arrive()).unwrap();
            let watcher = lifecycle.clone();
            let call = tokio::spawn(async move {
                let reason = watcher.cancelled().await;
                drop(slot);
                reason
            });
            let left = lifecycle
                .stop("SIGTERM", Duration::ZERO, Duration::from_millis(100))
                .await;
            assert_eq!(left, 0);
            assert_eq!(call.await.unwrap(), "SIGTERM");
            assert_eq!(
                lifecycle.begin(lifecycle.arrive()).unwrap_err(),
                Refusal::Stopping("SIGTERM")
            );
        });
    }

    #[test]
    fn drain_lets_a_call_finish_uncancelled() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            let slot = lifecycle.begin(lifecycle.arrive()).unwrap();
            let watcher = lifecycle.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                drop(slot);
            });
            let left = lifecycle
                .stop("stdin closed", Duration::from_secs(5), Duration::ZERO)
                .await;
            assert_eq!(left, 0);
            assert_eq!(watcher.phase(), Phase::Draining("stdin closed"));
        });
    }

    #[test]
    fn a_drain_lets_calls_read_before_the_stop_start_and_waits_for_them() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            // Two calls read, neither at the handler yet.
            lifecycle.read_call();
            lifecycle.read_call();
            let stopper = lifecycle.clone();
            let stop = tokio::spawn(async move {
                stopper
                    .stop("stdin closed", Duration::from_secs(5), Duration::ZERO)
                    .await
            });
            while lifecycle.phase() == Phase::Running {
                tokio::task::yield_now().await;
            }
            let mut calls = Vec::new();
            for _ in 0..2 {
                let slot = lifecycle.begin(lifecycle.arrive()).expect("let in");
                calls.push(tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    drop(slot);
                }));
            }
            // A third arrives, read after the stop: refused.
            assert_eq!(
                lifecycle.begin(lifecycle.arrive()).unwrap_err(),
                Refusal::Stopping("stdin closed")
            );
            assert_eq!(stop.await.unwrap(), 0);
            assert_eq!(lifecycle.phase(), Phase::Draining("stdin closed"));
            for call in calls {
                call.await.unwrap();
            }
        });
    }

    #[test]
    fn a_call_that_arrived_before_the_stop_begins_during_the_drain() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            lifecycle.read_call();
            // At the handler while running; begins only after the stop.
            let arrival = lifecycle.arrive();
            let stopper = lifecycle.clone();
            let stop = tokio::spawn(async move {
                stopper
                    .stop("stdin closed", Duration::from_secs(5), Duration::ZERO)
                    .await
            });
            while lifecycle.phase() == Phase::Running {
                tokio::task::yield_now().await;
            }
            let slot = lifecycle.begin(arrival).expect("let in");
            drop(slot);
            assert_eq!(stop.await.unwrap(), 0);
        });
    }

    #[test]
    fn a_queued_call_that_never_arrives_holds_the_drain_only_for_its_period() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            lifecycle.read_call();
            let started = std::time::Instant::now();
            let left = lifecycle
                .stop("SIGTERM", Duration::from_millis(100), Duration::ZERO)
                .await;
            assert_eq!(left, 0);
            assert!(started.elapsed() >= Duration::from_millis(100));
            assert_eq!(lifecycle.phase(), Phase::Cancelling("SIGTERM"));
            // Past the period, it is refused when it comes.
            assert!(lifecycle.begin(lifecycle.arrive()).is_err());
        });
    }

    #[test]
    fn a_call_that_never_ends_is_given_up_on() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(4);
            let _stuck = lifecycle.begin(lifecycle.arrive()).unwrap();
            let left = lifecycle
                .stop("SIGINT", Duration::ZERO, Duration::from_millis(10))
                .await;
            assert_eq!(left, 1);
        });
    }
}
