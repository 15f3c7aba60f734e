//! An engine command's processes as one: the command is run by the platform's shell and stopped
//! as a whole, so that a wrapper shell cannot leave the real engine running (a stuck engine
//! would go on using a core, and on Windows would keep the match's own output open, as it
//! inherits the match's handles). On Unix the shell leads a process group of its own and the
//! group is killed; on Windows the shell is put in a job object, which the processes it starts
//! join, and the job is terminated. Elsewhere the command is a program's name, killed alone.

use std::process::{Child, Command};

/// The shell that runs an engine command: `sh -c` in a process group of its own on Unix;
/// `cmd /D /S /C "CMD"` on Windows, the command passed as typed: Rust's own argument quoting
/// (quotes escaped with backslashes) is not cmd's and would break a quoted path such as
/// `"C:\Program Files\engine.exe" --fast`; with `/S` cmd removes just the outer pair of quotes
/// added here, and `/D` skips any AutoRun command.
pub(crate) fn shell(command: &str) -> Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new("sh");
        c.arg("-c").arg(command).process_group(0);
        c
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        let mut c = Command::new("cmd");
        c.raw_arg(format!("/D /S /C \"{command}\""));
        c
    }
    // No shell known elsewhere: the command is a program's name.
    #[cfg(not(any(unix, windows)))]
    {
        Command::new(command)
    }
}

/// The processes of a command started with [`shell`]: the shell and all it starts.
pub(crate) struct ProcessGroup {
    #[cfg(unix)]
    leader: u32,
    #[cfg(windows)]
    job: Option<job::Job>,
}

impl ProcessGroup {
    /// The group of `child`, just spawned from [`shell`]. On Windows the shell joins a new job
    /// right after its start; cmd takes milliseconds to start the engine, which then joins the
    /// job with it. Should that fail (no job could be made or joined), only the shell is killed.
    pub(crate) fn of(child: &Child) -> ProcessGroup {
        ProcessGroup {
            #[cfg(unix)]
            leader: child.id(),
            #[cfg(windows)]
            job: job::Job::of(child),
        }
    }

    /// Kills every process of the group that still runs; the caller then kills and reaps its
    /// own child (the shell), which this does not wait for.
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        {
            let group = format!("-{}", self.leader);
            let _ = Command::new("kill")
                .args(["-KILL", "--", &group])
                .stderr(std::process::Stdio::null())
                .status();
        }
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
    }
}

#[cfg(windows)]
mod job {
    use std::ffi::c_void;
    use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
    use std::process::Child;

    // kernel32's own declarations (a whole bindings crate for three functions is not worth it).
    #[link(name = "kernel32")]
    extern "system" {
        fn CreateJobObjectW(attributes: *const c_void, name: *const u16) -> *mut c_void;
        fn AssignProcessToJobObject(job: *mut c_void, process: *mut c_void) -> i32;
        fn TerminateJobObject(job: *mut c_void, exit_code: u32) -> i32;
    }

    /// A job object holding one started command's processes; its handle closes on drop, which
    /// leaves the processes running (they are stopped only by `terminate`).
    pub(super) struct Job(OwnedHandle);

    impl Job {
        /// A new job with `child` in it, or `None` when Windows refuses either step.
        pub(super) fn of(child: &Child) -> Option<Job> {
            // SAFETY: no security attributes and no name ask for a new anonymous job; the
            // result is a handle of ours or null.
            let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
            if raw.is_null() {
                return None;
            }
            // SAFETY: a handle just created, owned by nothing else.
            let job = Job(unsafe { OwnedHandle::from_raw_handle(raw) });
            // SAFETY: both handles are open for the call (the child is borrowed).
            let joined =
                unsafe { AssignProcessToJobObject(job.0.as_raw_handle(), child.as_raw_handle()) };
            (joined != 0).then_some(job)
        }

        /// Ends every process in the job.
        pub(super) fn terminate(&self) {
            // SAFETY: the job's handle is open while `self` lives.
            unsafe { TerminateJobObject(self.0.as_raw_handle(), 1) };
        }
    }
}
