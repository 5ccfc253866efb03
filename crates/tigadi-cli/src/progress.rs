//! Progress bars for long commands: drawn on a terminal, silent otherwise.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use tigadi_solve::Observer;

/// One bar at a time, replaced at each phase; hidden unless stderr is a terminal.
pub struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    visible: bool,
}

impl Bars {
    /// Bars that draw only when stderr is a terminal.
    pub fn new() -> Bars {
        Bars {
            bar: Mutex::new(None),
            visible: std::io::stderr().is_terminal(),
        }
    }

    /// A fresh bar of `len` units with the given label.
    pub fn start(&self, label: &str, len: u64) {
        let bar = if self.visible {
            let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{prefix:>14} {bar:40} {percent:>3}% {msg} eta {eta}")
                    .expect("valid template"),
            );
            b
        } else {
            ProgressBar::hidden()
        };
        bar.set_prefix(label.to_string());
        if let Some(old) = self.bar.lock().unwrap().replace(bar) {
            old.finish_and_clear();
        }
    }

    /// Advances the current bar.
    pub fn inc(&self, amount: u64) {
        if let Some(b) = self.bar.lock().unwrap().as_ref() {
            b.inc(amount);
        }
    }

    /// Clears the current bar.
    pub fn finish(&self) {
        if let Some(b) = self.bar.lock().unwrap().take() {
            b.finish_and_clear();
        }
    }

    /// An observer for the solver that labels its phases with `what`.
    pub fn observer<'a>(&'a self, what: &str) -> SolveBars<'a> {
        SolveBars {
            bars: self,
            what: what.to_string(),
        }
    }
}

/// Forwards the solver's progress to [`Bars`].
pub struct SolveBars<'a> {
    bars: &'a Bars,
    what: String,
}

impl Observer for SolveBars<'_> {
    fn phase(&self, name: &str, work: u64) {
        self.bars.start(&format!("{} {name}", self.what), work);
    }
    fn advance(&self, amount: u64) {
        self.bars.inc(amount);
    }
}
