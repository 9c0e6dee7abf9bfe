//! Rounds of reports: every worker sends one report at each timely time
//! and, once the time is complete everywhere, holds every worker's report
//! of it. The distributed IDA* decides everything from these, the same
//! way on every worker.

use super::watch::Watch;
use crate::SpaceError;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::ExchangeData;

/// A worker's side of the reports' dataflow.
pub(super) struct Rounds<R: ExchangeData + Clone> {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<(u32, R)>>>,
    probe: ProbeHandle<u64>,
    received: Rc<RefCell<Vec<(u64, u32, R)>>>,
    watch: Arc<Watch>,
}

impl<R: ExchangeData + Clone> Rounds<R> {
    /// The dataflow: reports broadcast to every worker and kept there.
    pub(super) fn build(worker: &mut Worker, watch: &Arc<Watch>) -> Rounds<R> {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let received: Rc<RefCell<Vec<(u64, u32, R)>>> = Rc::default();
        worker.dataflow::<u64, _, _>(|scope| {
            let r = Rc::clone(&received);
            scope
                .input_from(&mut input)
                .broadcast()
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Pipeline,
                    "Reports",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|time, data| {
                                // Input handles always send under a time.
                                let Some(&t) = time.least() else { return };
                                let mut r = r.borrow_mut();
                                r.extend(data.drain(..).map(|(w, rep)| (t, w, rep)));
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Rounds {
            input,
            probe,
            received,
            watch: Arc::clone(watch),
        }
    }

    /// Sends this worker's `report` at `time` (later than any before),
    /// waits until the time is complete everywhere, and returns every
    /// worker's report of it in worker order. `Err` once the run has
    /// failed (a lost peer's progress never comes).
    pub(super) fn round(
        &mut self,
        worker: &mut Worker,
        time: u64,
        report: R,
    ) -> Result<Vec<R>, SpaceError> {
        if *self.input.time() < time {
            self.input.advance_to(time);
        }
        self.input.send((worker.index() as u32, report));
        self.input.advance_to(time + 1);
        while self.probe.less_than(&(time + 1)) {
            if self.watch.failed() {
                return Err(stopped());
            }
            worker.step_or_park(Some(Duration::from_millis(5)));
        }
        let mut all = Vec::new();
        self.received.borrow_mut().retain(|(t, w, r)| {
            if *t == time {
                all.push((*w, r.clone()));
            }
            *t != time
        });
        all.sort_by_key(|&(w, _)| w);
        Ok(all.into_iter().map(|(_, r)| r).collect())
    }
}

/// A worker's error when the run failed elsewhere (the run reports the
/// failure itself).
pub(super) fn stopped() -> SpaceError {
    SpaceError::Cluster("stopped: the run failed".into())
}
