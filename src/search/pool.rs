//! The search threads: started once, parked between searches, given one job each per search.
//! A `Searcher` owns its pool; the threads end when it is dropped.
//!
//! Why a pool rather than threads scoped to each search: with many more threads than cores a
//! search's end cannot wait for every thread to be scheduled once more, and starting hundreds
//! of threads per move costs time. The pool lets a search answer as soon as it has a move and
//! lets its threads wind down on their own; the next search first waits until all are parked
//! before the table is cleared or replaced (`wait_idle`); a new search need not wait, since a
//! thread takes its next job only when its last has ended.
//!
//! Threads beyond the machine's cores run at the lowest priority (`SCHED_IDLE` on Linux): they
//! search only on a core that would otherwise be idle. At normal priority, hundreds of searching
//! threads on two cores leave the main thread, and the thread that keeps the clock, waiting a
//! second or more for a core, and the move comes late and shallow.

use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// One unit of work for one thread.
pub(crate) type Job = Box<dyn FnOnce() + Send + 'static>;

/// How many jobs are running, and a condition signalled when the count falls to zero.
#[derive(Default)]
struct Running {
    count: Mutex<usize>,
    idle: Condvar,
}

/// Long-lived search threads.
#[derive(Default)]
pub(crate) struct Pool {
    threads: Vec<(Sender<Job>, JoinHandle<()>)>,
    running: Arc<Running>,
}

impl Pool {
    /// Threads in the pool.
    pub(crate) fn len(&self) -> usize {
        self.threads.len()
    }

    /// Grows or shrinks the pool to `n` threads (waiting for running jobs first). Returns the
    /// number it has: fewer than `n` when the system refuses more threads.
    pub(crate) fn resize(&mut self, n: usize) -> usize {
        self.wait_idle();
        // Dropping a thread's sender ends its loop; it is parked, so it ends at once.
        for (jobs, handle) in self.threads.drain(n.min(self.threads.len())..) {
            drop(jobs);
            let _ = handle.join();
        }
        while self.threads.len() < n {
            let (jobs, inbox) = channel::<Job>();
            let running = Arc::clone(&self.running);
            let beyond_cores = self.threads.len() >= cores();
            let spawned = std::thread::Builder::new()
                .name(format!("search-{}", self.threads.len()))
                .spawn(move || {
                    if beyond_cores && !lower_priority() {
                        log::debug!("could not lower a search thread's priority");
                    }
                    while let Ok(job) = inbox.recv() {
                        // A panicking job must neither kill the thread nor leave the count up;
                        // the coordinator learns of it through the job's dropped channel.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        running.finish_one();
                    }
                });
            match spawned {
                Ok(handle) => self.threads.push((jobs, handle)),
                Err(e) => {
                    log::warn!("could not start search thread {}: {e}", self.threads.len());
                    break;
                }
            }
        }
        self.threads.len()
    }

    /// Gives thread `i` a job. Returns the job back if there is no such thread, or it has gone
    /// (it cannot, short of a bug, since panics are caught).
    pub(crate) fn run(&self, i: usize, job: Job) -> Result<(), Job> {
        let Some((jobs, _)) = self.threads.get(i) else {
            return Err(job);
        };
        *self.running.count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        jobs.send(job).map_err(|e| {
            self.running.finish_one();
            e.0
        })
    }

    /// As `wait_idle`, for at most `limit`; returns whether every thread is parked.
    fn wait_idle_for(&self, limit: std::time::Duration) -> bool {
        let count = self.running.count.lock().unwrap_or_else(|e| e.into_inner());
        let (count, _) = self
            .running
            .idle
            .wait_timeout_while(count, limit, |c| *c > 0)
            .unwrap_or_else(|e| e.into_inner());
        *count == 0
    }

    /// Waits until every job has ended and every thread is parked.
    pub(crate) fn wait_idle(&self) {
        let mut count = self.running.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count > 0 {
            count = self
                .running
                .idle
                .wait(count)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The cores this process may run on (its affinity and its cgroup's quota count).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Whether threads can be moved to the idle scheduling class here (`lower_priority`).
pub(crate) const IDLE_CLASS: bool = cfg!(any(target_os = "linux", windows));

/// Moves the calling thread to the idle scheduling class, so that it runs only on a core
/// nothing else wants. Returns whether the kernel agreed (a thread may always lower its own
/// priority). Linux has the class itself; on Windows the idle thread priority is the same idea
/// (scheduled only when no thread of a higher priority is ready); elsewhere (macOS) there is
/// nothing to do and nothing done.
fn lower_priority() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SCHED_IDLE requires a priority of 0.
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread, whose scheduling alone changes; the kernel
        // reads `param`, which outlives the call.
        unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) == 0 }
    }
    #[cfg(windows)]
    {
        // kernel32's own declarations (a whole bindings crate for two functions is not worth
        // it); the pseudo-handle of GetCurrentThread needs no closing.
        #[link(name = "kernel32")]
        extern "system" {
            fn GetCurrentThread() -> *mut std::ffi::c_void;
            fn SetThreadPriority(thread: *mut std::ffi::c_void, priority: i32) -> i32;
        }
        const THREAD_PRIORITY_IDLE: i32 = -15;
        // SAFETY: both functions act on the calling thread alone.
        unsafe { SetThreadPriority(GetCurrentThread(), THREAD_PRIORITY_IDLE) != 0 }
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        false
    }
}

impl Running {
    fn finish_one(&self) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.idle.notify_all();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // The threads are ended and joined, so that none is still running (or tearing itself
        // down) when the process exits: a search winding down has its stop flag set and ends
        // within a poll. Only if they are not all parked within a second are they left to end
        // on their own. A pool without threads (the browser's) has nothing to wait for.
        if self.threads.is_empty() {
            return;
        }
        let idle = self.wait_idle_for(std::time::Duration::from_secs(1));
        for (jobs, handle) in self.threads.drain(..) {
            drop(jobs);
            if idle {
                let _ = handle.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn jobs_run_on_parked_threads_and_idle_waits_for_them() {
        let mut pool = Pool::default();
        assert_eq!(pool.resize(3), 3);
        let done = Arc::new(AtomicUsize::new(0));
        for round in 0..2 {
            for i in 0..3 {
                let done = Arc::clone(&done);
                let job: Job = Box::new(move || {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    done.fetch_add(1, Ordering::SeqCst);
                });
                assert!(pool.run(i, job).is_ok());
            }
            pool.wait_idle();
            assert_eq!(done.load(Ordering::SeqCst), 3 * (round + 1));
        }
        assert_eq!(pool.resize(1), 1);
        assert_eq!(pool.len(), 1);
    }

    #[test]
    fn a_thread_lowers_its_priority_where_the_system_has_the_idle_class() {
        // On a thread of its own: the change is for good.
        let lowered = std::thread::spawn(lower_priority).join().unwrap();
        assert_eq!(lowered, IDLE_CLASS);
    }

    #[test]
    fn a_panicking_job_leaves_the_thread_usable() {
        let mut pool = Pool::default();
        pool.resize(1);
        let _ = pool.run(0, Box::new(|| panic!("a bug in a job")));
        pool.wait_idle();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&ran);
        let job: Job = Box::new(move || {
            r.fetch_add(1, Ordering::SeqCst);
        });
        assert!(pool.run(0, job).is_ok());
        pool.wait_idle();
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
