//! Raising a thread's scheduling priority, shared by the sim thread and the force-feedback
//! writer (one owner of the policy).
//!
//! On Linux a real-time FIFO priority when the user may (root, `CAP_SYS_NICE` or an rtprio
//! limit), so that the renderer's worker threads cannot delay a tick or a wheel write; else
//! the highest normal priority; else nothing. Both threads sleep most of each period, so they
//! cannot starve the system (and the kernel's real-time throttling caps them at 95 % of a
//! core in any case).

/// FIFO priority of the sim thread (of 1..99).
pub const SIM_FIFO_PRIORITY: u8 = 50;
/// FIFO priority of the force-feedback writer: just below the sim thread, whose tick produces
/// what it writes.
pub const FFB_WRITER_FIFO_PRIORITY: u8 = 49;

/// Raises the calling thread's priority (see the module docs); `fifo_priority` is used where
/// real-time scheduling is allowed. Returns whether anything was raised.
pub fn raise_current_thread(fifo_priority: u8) -> bool {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            RealtimeThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue,
            ThreadSchedulePolicy, set_thread_priority_and_policy, thread_native_id,
        };
        if let Ok(value) = ThreadPriorityValue::try_from(fifo_priority)
            && set_thread_priority_and_policy(
                thread_native_id(),
                ThreadPriority::Crossplatform(value),
                ThreadSchedulePolicy::Realtime(RealtimeThreadSchedulePolicy::Fifo),
            )
            .is_ok()
        {
            return true;
        }
    }
    let _ = fifo_priority;
    thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Max).is_ok()
}
