//! The server's calls in flight, their cap, and how they end when the
//! server does.
//!
//! Every `tools/call` that gets past the argument cap takes a [`Slot`]; at
//! most `max_calls` exist at once. A call over that waits in line, first
//! come first served, for at most the queue's deadline. The line holds
//! at most `max_queued` calls, and, since each waiting call holds its
//! parsed arguments, at most the arguments of [`QUEUE_BUDGET_CALLS`] of
//! the largest calls the server accepts, in bytes and in values: a line
//! of small calls is long, one of huge calls short. A call fails, with a
//! retryable error, only when the line is full when it comes or its
//! deadline passes. When the transport closes (stdin at EOF, the HTTP listener
//! told to stop) or the server gets SIGTERM, SIGINT or SIGHUP, [`Lifecycle::stop`]
//! refuses new calls, gives the ones in flight up to the drain period to
//! finish (and, over stdio, the ones already read but not yet started:
//! the reader counts each `tools/call` it hands on, the handler each that
//! arrives, and those read before the stop may still start), then cancels
//! each with the reason: its process group gets
//! SIGTERM, then SIGKILL after the grace period, and its outcome record says
//! `cancelled` with `cancel_reason`. The server waits for those records,
//! never longer than the grace period plus a margin, and exits.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// Default cap on one call's `arguments`, in bytes of JSON text.
pub const MAX_ARGUMENT_BYTES: usize = 1024 * 1024;
/// Default cap on the JSON values in one call's `arguments`: a parsed
/// value costs memory per value, whatever its bytes, so tiny values
/// (`[1,1,1,...]`) need a cap of their own (docs/security.md).
pub const MAX_ARGUMENT_VALUES: usize = 16 * 1024;
/// Default cap on calls running at once.
pub const MAX_CALLS: usize = 8;
/// Default cap on calls waiting for one of those places.
pub const MAX_QUEUED_CALLS: usize = 128;
/// Default time a call may wait for a place before it is refused.
pub const QUEUE_TIMEOUT: Duration = Duration::from_secs(30);
/// The calls waiting in line hold at most the arguments of this many of
/// the largest calls accepted (`--max-argument-bytes`,
/// `--max-argument-values`): at the default caps, 4 MiB of arguments or
/// 65,536 values, some 50 MiB once parsed (docs/security.md).
pub const QUEUE_BUDGET_CALLS: usize = 4;

/// What a call's arguments hold: bytes of JSON and JSON values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Weight {
    pub bytes: usize,
    pub values: usize,
}

/// How many calls run at once, and how many may wait, for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimits {
    pub max_calls: usize,
    pub max_queued: usize,
    pub queue_timeout: Duration,
}

impl Default for CallLimits {
    fn default() -> Self {
        Self {
            max_calls: MAX_CALLS,
            max_queued: MAX_QUEUED_CALLS,
            queue_timeout: QUEUE_TIMEOUT,
        }
    }
}

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
    /// `max_calls` calls are running and `max_queued` more are waiting.
    QueueFull { running: usize, queued: usize },
    /// The call waited this long for a place, its deadline.
    QueueTimeout { running: usize, waited: Duration },
    /// The server is stopping.
    Stopping(&'static str),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::QueueFull { running, queued } => write!(
                f,
                "the server is running its limit of {running} calls at once and its line of \
                 calls waiting for a place is full ({queued} waiting); nothing was run; retry \
                 in a moment"
            ),
            Refusal::QueueTimeout { running, waited } => write!(
                f,
                "the server was running its limit of {running} calls at once for the {:.1} s \
                 this call waited; nothing was run; retry in a moment",
                waited.as_secs_f64()
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
    limits: CallLimits,
    /// The most argument the calls in line may hold together.
    budget: Weight,
    /// One permit per place; handed to waiting calls in the order they
    /// came.
    places: Arc<Semaphore>,
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
    /// Waiting in line for a place.
    waiting: usize,
    /// What the calls in line hold.
    held: Weight,
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

/// A running call's place; the count goes down, and the place goes to
/// the next call in line, when it is dropped.
pub struct Slot {
    shared: Arc<Shared>,
    _place: OwnedSemaphorePermit,
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

/// A call's place in line; leaving it (however the wait ends, the call's
/// future dropped included) takes it out of the count.
struct InLine<'a> {
    shared: &'a Shared,
    weight: Weight,
}

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        self.shared.counts.send_modify(|counts| {
            counts.waiting = counts.waiting.saturating_sub(1);
            counts.held.bytes = counts.held.bytes.saturating_sub(self.weight.bytes);
            counts.held.values = counts.held.values.saturating_sub(self.weight.values);
        });
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
    /// At least one call runs at once, whatever is asked. The calls in
    /// line hold at most `budget` together.
    pub fn new(limits: CallLimits, budget: Weight) -> Self {
        let limits = CallLimits {
            max_calls: limits.max_calls.max(1),
            ..limits
        };
        Self {
            shared: Arc::new(Shared {
                phase: watch::Sender::new(Phase::Running),
                counts: watch::Sender::new(Counts::default()),
                places: Arc::new(Semaphore::new(limits.max_calls)),
                limits,
                budget,
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

    /// A slot for one call, or why not: at once when one is free, else
    /// after waiting in line (up to the queue's deadline, and only while
    /// the line has room). While the server drains, only a call read
    /// before the stop gets one; once it cancels, none does, and the calls
    /// in line leave it.
    pub async fn begin(&self, mut arrival: Arrival, weight: Weight) -> Result<Slot, Refusal> {
        self.may_begin(&arrival)?;
        let limits = self.shared.limits;
        let budget = self.shared.budget;
        let place = match Arc::clone(&self.shared.places).try_acquire_owned() {
            Ok(place) => place,
            Err(_) => {
                let mut room = false;
                self.shared.counts.send_if_modified(|counts| {
                    room = counts.waiting < limits.max_queued
                        && counts.held.bytes.saturating_add(weight.bytes) <= budget.bytes
                        && counts.held.values.saturating_add(weight.values) <= budget.values;
                    if room {
                        counts.waiting += 1;
                        counts.held.bytes += weight.bytes;
                        counts.held.values += weight.values;
                    }
                    room
                });
                if !room {
                    return Err(Refusal::QueueFull {
                        running: limits.max_calls,
                        queued: limits.max_queued,
                    });
                }
                let in_line = InLine {
                    shared: &self.shared,
                    weight,
                };
                let place = self.wait_in_line(&arrival).await;
                drop(in_line);
                place?
            }
        };
        // A stop may have come while the place was taken (or handed on to
        // this call in line): looked at again under the counts' lock, as
        // `stop` changes the phase under it.
        let admitted = arrival.admitted;
        let mut stopping = None;
        self.shared.counts.send_if_modified(|counts| {
            match *self.shared.phase.borrow() {
                Phase::Running => {}
                Phase::Draining(_) if admitted => {}
                Phase::Draining(reason) | Phase::Cancelling(reason) => {
                    stopping = Some(reason);
                    return false;
                }
            }
            counts.in_flight += 1;
            if admitted {
                // From let in to running, in one step.
                counts.admitted = counts.admitted.saturating_sub(1);
            }
            true
        });
        if let Some(reason) = stopping {
            return Err(Refusal::Stopping(reason));
        }
        arrival.admitted = false;
        Ok(Slot {
            shared: Arc::clone(&self.shared),
            _place: place,
        })
    }

    /// Whether the server's phase lets this call begin (or go on waiting).
    fn may_begin(&self, arrival: &Arrival) -> Result<(), Refusal> {
        match self.phase() {
            Phase::Running => Ok(()),
            Phase::Draining(_) if arrival.admitted => Ok(()),
            Phase::Draining(reason) | Phase::Cancelling(reason) => Err(Refusal::Stopping(reason)),
        }
    }

    /// Waits for a place, in the order the calls came, until the queue's
    /// deadline, or until the server's stop turns this call away.
    async fn wait_in_line(&self, arrival: &Arrival) -> Result<OwnedSemaphorePermit, Refusal> {
        let limits = self.shared.limits;
        let started = Instant::now();
        let mut phase = self.shared.phase.subscribe();
        let place = Arc::clone(&self.shared.places).acquire_owned();
        tokio::pin!(place);
        let deadline = tokio::time::sleep(limits.queue_timeout);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                biased;
                place = &mut place => {
                    // The semaphore is never closed.
                    return place.map_err(|_| Refusal::Stopping("the server is stopping"));
                }
                () = &mut deadline => {
                    return Err(Refusal::QueueTimeout {
                        running: limits.max_calls,
                        waited: started.elapsed(),
                    });
                }
                changed = phase.changed() => {
                    if changed.is_err() {
                        std::future::pending::<()>().await;
                    }
                    self.may_begin(arrival)?;
                }
            }
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

    const BUDGET: Weight = Weight {
        bytes: 1000,
        values: 100,
    };
    const LIGHT: Weight = Weight {
        bytes: 10,
        values: 1,
    };

    fn limits(max_calls: usize) -> CallLimits {
        CallLimits {
            max_calls,
            max_queued: 0,
            queue_timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn slots_are_capped_and_given_back() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(limits(2), BUDGET);
            let first = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let _second = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            assert_eq!(
                lifecycle
                    .begin(lifecycle.arrive(), LIGHT)
                    .await
                    .unwrap_err(),
                Refusal::QueueFull {
                    running: 2,
                    queued: 0
                }
            );
            drop(first);
            assert_eq!(lifecycle.in_flight(), 1);
            assert!(lifecycle.begin(lifecycle.arrive(), LIGHT).await.is_ok());
        });
    }

    #[test]
    fn calls_over_the_cap_wait_their_turn_in_order() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(
                CallLimits {
                    max_calls: 1,
                    max_queued: 3,
                    queue_timeout: Duration::from_secs(10),
                },
                BUDGET,
            );
            let first = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let order = Arc::new(std::sync::Mutex::new(Vec::new()));
            let mut waiting = Vec::new();
            for index in 0..3 {
                let (caller, order) = (lifecycle.clone(), Arc::clone(&order));
                waiting.push(tokio::spawn(async move {
                    let slot = caller.begin(caller.arrive(), LIGHT).await.unwrap();
                    order.lock().unwrap().push(index);
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    drop(slot);
                }));
                // Each is in line before the next comes.
                while lifecycle.shared.counts.borrow().waiting <= index {
                    tokio::task::yield_now().await;
                }
            }
            // The line is full: a fifth is refused at once.
            assert_eq!(
                lifecycle
                    .begin(lifecycle.arrive(), LIGHT)
                    .await
                    .unwrap_err(),
                Refusal::QueueFull {
                    running: 1,
                    queued: 3
                }
            );
            drop(first);
            for call in waiting {
                call.await.unwrap();
            }
            assert_eq!(*order.lock().unwrap(), [0, 1, 2]);
            assert_eq!(lifecycle.in_flight(), 0);
            assert_eq!(lifecycle.shared.counts.borrow().waiting, 0);
        });
    }

    #[test]
    fn the_line_holds_no_more_argument_than_its_budget() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(
                CallLimits {
                    max_calls: 1,
                    max_queued: 100,
                    queue_timeout: Duration::from_secs(10),
                },
                BUDGET,
            );
            let running = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let heavy = Weight {
                bytes: 600,
                values: 10,
            };
            let waiter = lifecycle.clone();
            let waiting = tokio::spawn(async move { waiter.begin(waiter.arrive(), heavy).await });
            while lifecycle.shared.counts.borrow().waiting == 0 {
                tokio::task::yield_now().await;
            }
            // A second heavy call would pass the budget's bytes; one of
            // many values its values: both refused, while light ones wait.
            for over in [
                heavy,
                Weight {
                    bytes: 1,
                    values: 91,
                },
            ] {
                assert!(matches!(
                    lifecycle.begin(lifecycle.arrive(), over).await,
                    Err(Refusal::QueueFull { .. })
                ));
            }
            let light = lifecycle.clone();
            let light = tokio::spawn(async move { light.begin(light.arrive(), LIGHT).await });
            while lifecycle.shared.counts.borrow().waiting < 2 {
                tokio::task::yield_now().await;
            }
            assert_eq!(
                lifecycle.shared.counts.borrow().held,
                Weight {
                    bytes: 610,
                    values: 11
                }
            );
            drop(running);
            drop(waiting.await.unwrap().unwrap());
            drop(light.await.unwrap().unwrap());
            assert_eq!(lifecycle.shared.counts.borrow().held, Weight::default());
        });
    }

    #[test]
    fn a_call_that_waits_past_the_deadline_is_refused_and_leaves_the_line() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(
                CallLimits {
                    max_calls: 1,
                    max_queued: 4,
                    queue_timeout: Duration::from_millis(50),
                },
                BUDGET,
            );
            let _running = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let started = Instant::now();
            let refusal = lifecycle
                .begin(lifecycle.arrive(), LIGHT)
                .await
                .unwrap_err();
            assert!(matches!(refusal, Refusal::QueueTimeout { running: 1, .. }));
            assert!(started.elapsed() >= Duration::from_millis(50));
            assert_eq!(lifecycle.shared.counts.borrow().waiting, 0);
            // A call given up on while it waits leaves the line too.
            let given_up = tokio::time::timeout(
                Duration::from_millis(10),
                lifecycle.begin(lifecycle.arrive(), LIGHT),
            )
            .await;
            assert!(given_up.is_err());
            assert_eq!(lifecycle.shared.counts.borrow().waiting, 0);
        });
    }

    #[test]
    fn a_stop_turns_away_the_calls_in_line() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(
                CallLimits {
                    max_calls: 1,
                    max_queued: 4,
                    queue_timeout: Duration::from_secs(30),
                },
                BUDGET,
            );
            let running = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let waiter = lifecycle.clone();
            let waiting = tokio::spawn(async move { waiter.begin(waiter.arrive(), LIGHT).await });
            while lifecycle.shared.counts.borrow().waiting == 0 {
                tokio::task::yield_now().await;
            }
            let watcher = lifecycle.clone();
            let call = tokio::spawn(async move {
                let reason = watcher.cancelled().await;
                drop(running);
                reason
            });
            let left = lifecycle
                .stop("SIGHUP", Duration::ZERO, Duration::from_millis(100))
                .await;
            assert_eq!(left, 0);
            assert_eq!(call.await.unwrap(), "SIGHUP");
            assert_eq!(
                waiting.await.unwrap().unwrap_err(),
                Refusal::Stopping("SIGHUP")
            );
        });
    }

    #[test]
    fn stop_cancels_what_is_running_and_refuses_new_calls() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
            let slot = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
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
                lifecycle
                    .begin(lifecycle.arrive(), LIGHT)
                    .await
                    .unwrap_err(),
                Refusal::Stopping("SIGTERM")
            );
        });
    }

    #[test]
    fn drain_lets_a_call_finish_uncancelled() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
            let slot = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
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
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
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
                let slot = lifecycle
                    .begin(lifecycle.arrive(), LIGHT)
                    .await
                    .expect("let in");
                calls.push(tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    drop(slot);
                }));
            }
            // A third arrives, read after the stop: refused.
            assert_eq!(
                lifecycle
                    .begin(lifecycle.arrive(), LIGHT)
                    .await
                    .unwrap_err(),
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
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
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
            let slot = lifecycle.begin(arrival, LIGHT).await.expect("let in");
            drop(slot);
            assert_eq!(stop.await.unwrap(), 0);
        });
    }

    #[test]
    fn a_queued_call_that_never_arrives_holds_the_drain_only_for_its_period() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
            lifecycle.read_call();
            let started = std::time::Instant::now();
            let left = lifecycle
                .stop("SIGTERM", Duration::from_millis(100), Duration::ZERO)
                .await;
            assert_eq!(left, 0);
            assert!(started.elapsed() >= Duration::from_millis(100));
            assert_eq!(lifecycle.phase(), Phase::Cancelling("SIGTERM"));
            // Past the period, it is refused when it comes.
            assert!(lifecycle.begin(lifecycle.arrive(), LIGHT).await.is_err());
        });
    }

    #[test]
    fn a_call_that_never_ends_is_given_up_on() {
        runtime().block_on(async {
            let lifecycle = Lifecycle::new(limits(4), BUDGET);
            let _stuck = lifecycle.begin(lifecycle.arrive(), LIGHT).await.unwrap();
            let left = lifecycle
                .stop("SIGINT", Duration::ZERO, Duration::from_millis(10))
                .await;
            assert_eq!(left, 1);
        });
    }
}
