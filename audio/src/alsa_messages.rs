//! ALSA's library prints its complaints straight to standard error ("ALSA lib pcm.c:2666:
//! Unknown PCM default", a dozen lines when there is no sound card). While a [`Quiet`] guard
//! lives, the calling thread's messages go to a buffer instead, and the last one can be
//! quoted in the one line Gripline prints. Elsewhere than Linux this does nothing.

/// Captures ALSA's messages on this thread while it lives.
pub struct Quiet {
    #[cfg(target_os = "linux")]
    buffer: Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>>,
}

impl Quiet {
    /// Starts capturing (silently does nothing when ALSA cannot make a buffer).
    pub fn new() -> Self {
        Self {
            #[cfg(target_os = "linux")]
            buffer: alsa::Output::local_error_handler().ok(),
        }
    }

    /// The last message captured, if any.
    pub fn last_message(&self) -> Option<String> {
        #[cfg(target_os = "linux")]
        {
            let buffer = self.buffer.as_ref()?;
            let text = buffer.borrow().to_string();
            text.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_owned())
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

impl Default for Quiet {
    fn default() -> Self {
        Self::new()
    }
}
