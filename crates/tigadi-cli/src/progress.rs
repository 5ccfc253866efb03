//! Progress on a terminal: one overall bar for the whole run (units done of the
//! run's total, elapsed time, time left) and one bar for the current step (a
//! step's phase, a table), replaced at each step rather than stacked; result lines
//! are printed above the bars. When stderr is not a terminal (a run in the
//! background, its output in a log), no bar is drawn: the same figures go to
//! stderr as one plain line every [`PLAIN_EVERY`] (`TIGADI_PROGRESS_SECS`
//! seconds where set; `0` for none), so that a run of hours shows where it is.
//!
//! Result lines go to standard output through [`Progress::line`]; a failed write
//! is remembered rather than stopping the work ([`Progress::write_failure`]).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tigadi_jobs::{
    step_name, DtwReport, GameReport, HorizonReport, JobObserver, SubspaceReport, TierReport,
    VerifyObserver,
};
use tigadi_rules::RuleSet;
use tigadi_solve::Observer;
use tigadi_tablebase::{Hands, TableKind, Tier};

/// How often the overall bar redraws by itself (its clock runs between updates).
const TICK: Duration = Duration::from_millis(500);

/// How often a run off a terminal writes its progress line, unless
/// `TIGADI_PROGRESS_SECS` says otherwise.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

/// The two bars of a long command and the lines printed above them.
pub struct Progress {
    multi: MultiProgress,
    overall: ProgressBar,
    current: Arc<Mutex<Option<ProgressBar>>>,
    visible: bool,
    /// What the overall bar counts ("slots").
    unit: String,
    write_failure: Mutex<Option<String>>,
    /// Off a terminal: the thread that writes the plain progress lines, and
    /// the sender whose drop stops it.
    plain: Mutex<Option<(Sender<()>, JoinHandle<()>)>>,
}

impl Progress {
    /// Bars counting `unit` (e.g. "slots"), drawn only when stderr is a terminal.
    pub fn new(unit: &str) -> Progress {
        let visible = std::io::stderr().is_terminal();
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        // Shown from `plan` on, when its total is known.
        // Made hidden: a bar draws by itself until a MultiProgress takes it over.
        let overall = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        overall.set_style(
            ProgressStyle::with_template(&format!(
                "{{prefix:>16}} [{{bar:30}}] {{percent:>3}}% {{human_pos}}/{{human_len}} {unit}, \
                 {{elapsed_precise}} elapsed, {{eta_precise}} left"
            ))
            .expect("valid template")
            .progress_chars("=> "),
        );
        overall.set_prefix("all");
        Progress {
            multi,
            overall,
            current: Arc::new(Mutex::new(None)),
            visible,
            unit: unit.to_string(),
            write_failure: Mutex::new(None),
            plain: Mutex::new(None),
        }
    }

    /// The run's total, in units; starts the overall bar's clock (and off a
    /// terminal, the plain progress lines).
    pub fn plan(&self, total: u64) {
        self.overall.set_length(total);
        self.overall.reset_elapsed();
        self.multi.insert(0, self.overall.clone());
        if self.visible {
            self.overall.enable_steady_tick(TICK);
        } else {
            self.start_plain();
        }
    }

    /// Off a terminal: a thread that writes [`plain_line`] to stderr every
    /// [`PLAIN_EVERY`] (or `TIGADI_PROGRESS_SECS`) until [`finish`](Self::finish).
    fn start_plain(&self) {
        let every = match std::env::var("TIGADI_PROGRESS_SECS") {
            Ok(v) => match v.trim().parse::<f64>() {
                Ok(0.0) => return,
                Ok(secs) if secs.is_finite() && secs > 0.0 => Duration::from_secs_f64(secs),
                _ => {
                    self.warn(&format!(
                        "TIGADI_PROGRESS_SECS={v:?} is not a number of seconds; \
                         writing progress every {} s",
                        PLAIN_EVERY.as_secs()
                    ));
                    PLAIN_EVERY
                }
            },
            Err(_) => PLAIN_EVERY,
        };
        let mut plain = self.plain.lock().unwrap_or_else(|p| p.into_inner());
        if plain.is_some() {
            return;
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let overall = self.overall.clone();
        let current = Arc::clone(&self.current);
        let unit = self.unit.clone();
        let thread = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                let current = current.lock().unwrap_or_else(|p| p.into_inner()).clone();
                eprintln!("{}", plain_line(&overall, &unit, current.as_ref()));
            }
        });
        *plain = Some((stop, thread));
    }

    /// Stops the plain progress lines, if they run: drops the sender that
    /// keeps their thread waiting, then waits for it.
    fn stop_plain(&self) {
        if let Some((stop, thread)) = self.plain.lock().unwrap_or_else(|p| p.into_inner()).take() {
            drop(stop);
            let _ = thread.join();
        }
    }

    /// A new current step of `len` units (an estimate is fine), replacing the
    /// previous one's bar.
    pub fn step(&self, label: &str, len: u64) {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{prefix:>16} [{bar:30}] {percent:>3}%")
                .expect("valid template")
                .progress_chars("-> "),
        );
        bar.set_prefix(label.to_string());
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = current.take() {
            old.finish_and_clear();
            self.multi.remove(&old);
        }
        *current = Some(self.multi.add(bar));
    }

    /// `amount` more units of the current step are done.
    pub fn advance(&self, amount: u64) {
        let current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(b) = current.as_ref() {
            b.inc(amount);
        }
    }

    /// A step is over: its bar goes and `units` are added to the overall bar.
    pub fn done(&self, units: u64) {
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(old) = current.take() {
            old.finish_and_clear();
            self.multi.remove(&old);
        }
        self.overall.inc(units);
    }

    /// Prints `text` as a line on standard output, above the bars.
    pub fn line(&self, text: &str) {
        let result = if self.visible {
            self.multi
                .suspend(|| crate::output::line(format_args!("{text}")))
        } else {
            crate::output::line(format_args!("{text}"))
        };
        if let Err(e) = result {
            let mut failure = self.write_failure.lock().unwrap_or_else(|p| p.into_inner());
            failure.get_or_insert(e);
        }
    }

    /// Prints a warning on standard error, above the bars.
    pub fn warn(&self, text: &str) {
        self.multi.suspend(|| eprintln!("tigadi: warning: {text}"));
    }

    /// Stops the bars: the current one goes, the overall one stays as it ends
    /// (and the plain progress lines stop).
    pub fn finish(&self) {
        self.stop_plain();
        self.done(0);
        self.overall.disable_steady_tick();
        self.overall.abandon();
    }

    /// The first failed write to standard output, if any.
    pub fn write_failure(&self) -> Option<String> {
        self.write_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl Drop for Progress {
    /// Stops the plain progress lines of a run that ended without
    /// [`finish`](Progress::finish) (an error).
    fn drop(&mut self) {
        self.stop_plain();
    }
}

/// The plain progress line written off a terminal: the run's share done,
/// its units, elapsed time and estimated time left, and the current step's
/// label and share, e.g. `tigadi: progress: 23.4% of 126149396612 slots done
/// (29518958807), 2:01:33 elapsed, about 6:37:20 left; now 9v7 with 2+0 in
/// hand placements 45%`.
fn plain_line(overall: &ProgressBar, unit: &str, current: Option<&ProgressBar>) -> String {
    let (done, total) = (overall.position(), overall.length().unwrap_or(0));
    let share = |d: u64, t: u64| {
        if t == 0 {
            0.0
        } else {
            100.0 * d as f64 / t as f64
        }
    };
    let clock = |d: Duration| {
        let s = d.as_secs();
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    };
    // At the run's mean rate so far: the overall bar moves a step at a time,
    // and an estimate from its recent rate is meaningless after one jump.
    let left = if done == 0 {
        "time left not yet known".to_string()
    } else {
        let rest = total.saturating_sub(done) as f64 / done as f64;
        let secs = overall.elapsed().as_secs_f64() * rest;
        format!("about {} left", clock(Duration::from_secs_f64(secs)))
    };
    let now = current.map_or(String::new(), |c| {
        let (d, t) = (c.position(), c.length().unwrap_or(0));
        format!("; now {} {:.0}%", c.prefix(), share(d, t).min(100.0))
    });
    format!(
        "tigadi: progress: {:.1}% of {total} {unit} done ({done}), {} elapsed, {left}{now}",
        share(done, total),
        clock(overall.elapsed()),
    )
}

/// `solve`'s progress: the overall bar counts slots of the steps still to solve
/// (over every pass); the current bar is the solver's phase of the current step.
pub struct SolveProgress<'a> {
    pub progress: &'a Progress,
    /// The rule set solved: which tiers a step solves together ([`step_name`]).
    rules: RuleSet,
    /// What the solver's phases belong to: a step, with its kind's label.
    step: Mutex<Option<String>>,
    /// The process's CPU seconds when the current step started.
    cpu_mark: Mutex<f64>,
    /// Random words of memory the current step's solve touched so far
    /// ([`Observer::touched`]).
    touched: std::sync::atomic::AtomicU64,
}

impl<'a> SolveProgress<'a> {
    pub fn new(progress: &'a Progress, rules: &RuleSet) -> SolveProgress<'a> {
        SolveProgress {
            progress,
            rules: *rules,
            step: Mutex::new(None),
            cpu_mark: Mutex::new(0.0),
            touched: Default::default(),
        }
    }
}

/// A step's name in a result line ([`step_name`]: `4v3+3v4`, `2v3 with 1+0 in
/// hand`, both tiers of a Lasker pair step), followed by ` (100-turn)` or
/// ` (DTW)` for a kind other than the game values.
fn step_label(rules: &RuleSet, kind: TableKind, tier: Tier) -> String {
    match kind.label() {
        None => step_name(rules, tier),
        Some(label) => format!("{} ({label})", step_name(rules, tier)),
    }
}

impl SolveProgress<'_> {
    /// A step starts: its CPU time and peak memory count from here.
    fn mark_usage(&self) {
        crate::usage::reset_peak();
        *self.cpu_mark.lock().unwrap_or_else(|p| p.into_inner()) = crate::usage::cpu_seconds();
        self.touched.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// ` (C CPU s, peak M GB)` since [`mark_usage`](Self::mark_usage): the
    /// figures the per-pair table of docs/PERFORMANCE.md quotes.
    fn usage(&self) -> String {
        format!(" ({})", self.usage_figures())
    }

    /// `C CPU s, peak M GB` (the peak where the system says) since
    /// [`mark_usage`](Self::mark_usage).
    fn usage_figures(&self) -> String {
        let mark = *self.cpu_mark.lock().unwrap_or_else(|p| p.into_inner());
        let cpu = crate::usage::cpu_seconds() - mark;
        match crate::usage::peak_bytes() {
            Some(b) => format!("{cpu:.1} CPU s, peak {:.2} GB", b as f64 / 1e9),
            None => format!("{cpu:.1} CPU s"),
        }
    }
}

impl Observer for SolveProgress<'_> {
    fn phase(&self, name: &str, work: u64) {
        let step = self.step.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let label = step.map_or(name.to_string(), |p| format!("{p} {name}"));
        self.progress.step(&label, work);
    }
    fn advance(&self, amount: u64) {
        self.progress.advance(amount);
    }
    fn touched(&self, words: u64) {
        self.touched
            .fetch_add(words, std::sync::atomic::Ordering::Relaxed);
    }
}

impl JobObserver for SolveProgress<'_> {
    fn planned(&self, _steps: usize, slots: u64) {
        self.progress.plan(slots);
    }
    fn skipped(&self, kind: TableKind, tier: Tier) {
        self.progress.line(&format!(
            "{}: already solved",
            step_label(&self.rules, kind, tier)
        ));
    }
    fn started(&self, kind: TableKind, tier: Tier, _slots: u64) {
        *self.step.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(step_label(&self.rules, kind, tier));
        self.mark_usage();
    }
    fn horizon_solved(&self, r: &HorizonReport) {
        self.progress.done(r.slots);
        let c = &r.categories;
        // Found in the game values' pass, whose line counts the CPU of both.
        let usage = if r.with_game {
            "found with the game values".to_string()
        } else {
            self.usage_figures()
        };
        // The slots and the time before writing are for the log (summed by
        // benches/solve_log_totals.py); left out on a terminal, where the
        // line would no longer fit.
        let figures = if self.progress.visible {
            format!("{:.1} s ({usage})", r.seconds)
        } else {
            format!(
                "{} slots, {:.1} s ({:.1} s before writing; {usage})",
                r.slots, r.seconds, r.found_seconds
            )
        };
        self.progress.line(&format!(
            "{} (100-turn): {figures}, {} rounds, {} wins, \
             {} cursed wins, {} draws, {} blessed losses, {} losses at counter 0 (classes)",
            step_name(&self.rules, r.tier),
            r.rounds,
            c[4],
            c[3],
            c[2],
            c[1],
            c[0]
        ));
    }
    fn dtw_solved(&self, r: &DtwReport) {
        self.progress.done(r.slots);
        self.progress.line(&format!(
            "{} DTW: {:.1} s, {} levels, longest win {}, longest loss {}",
            step_name(&self.rules, r.tier),
            r.seconds,
            r.levels,
            r.longest_win,
            r.longest_loss
        ));
    }
    fn solved(&self, r: &GameReport) {
        self.progress.done(r.slots);
        self.progress.line(&format!(
            "{}: {} slots, {:.1} s{}, {} rounds, {} wins, {} draws, {} losses (classes){}{}",
            step_name(&self.rules, r.tier),
            r.slots,
            r.seconds,
            self.usage(),
            r.rounds,
            r.wins,
            r.draws,
            r.losses,
            // For the log (the model of the limit, docs/PERFORMANCE.md); left out
            // on a terminal, where the line would no longer fit.
            if self.progress.visible {
                String::new()
            } else {
                format!(
                    ", {} random memory words touched",
                    self.touched.load(std::sync::atomic::Ordering::Relaxed)
                )
            },
            if r.with_horizon {
                "; its 100-turn values found with them (the time and CPU are both kinds')"
            } else {
                ""
            }
        ));
    }
    fn tier_solved(&self, r: &TierReport) {
        self.progress.done(r.slots);
        self.progress.line(&format!(
            "{}: {} slots, {:.1} s{}{}",
            step_label(&self.rules, r.kind, r.tier),
            r.slots,
            r.seconds,
            self.usage(),
            if r.from_game {
                " (the game-theoretic values: the rule changes nothing it leads to)"
            } else {
                ""
            }
        ));
    }
    fn hands_solved(&self, kind: TableKind, hands: Hands, tiers: usize, slots: u64, seconds: f64) {
        let label = kind.label().map_or(String::new(), |l| format!(" ({l})"));
        self.progress.line(&format!(
            "{}+{} in hand{label}: {tiers} tiers, {slots} slots, {seconds:.1} s",
            hands.mover, hands.opponent
        ));
    }
    fn warning(&self, message: &str) {
        self.progress.warn(message);
    }
    /// A signal asked the run to stop ([`crate::interrupt`]).
    fn stop_requested(&self) -> bool {
        crate::interrupt::asked().is_some()
    }
}

/// `verify`'s progress: the overall bar counts slots of all tables; the current
/// bar is the table being checked; a result line per table as it ends.
pub struct VerifyProgress<'a> {
    pub progress: &'a Progress,
    /// Formats a table's result lines.
    pub report: fn(&SubspaceReport) -> Vec<String>,
}

impl VerifyObserver for VerifyProgress<'_> {
    fn planned(&self, _tables: usize, slots: u64) {
        self.progress.plan(slots);
    }
    fn started(&self, tier: Tier, slots: u64) {
        self.progress.step(&format!("verify {tier}"), slots);
    }
    fn advance(&self, slots: u64) {
        self.progress.advance(slots);
        self.progress.overall.inc(slots);
    }
    fn finished(&self, report: &SubspaceReport) {
        self.progress.done(0);
        for line in (self.report)(report) {
            self.progress.line(&line);
        }
    }
    /// A signal asked the run to stop ([`crate::interrupt`]).
    fn stop_requested(&self) -> bool {
        crate::interrupt::asked().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The time left is the run's mean rate so far applied to what is left:
    /// 10 of 1,000 slots done in 0.1 s leaves about 10 s, even though the
    /// slots came in one jump (the overall bar moves a step at a time).
    #[test]
    fn plain_line_estimates_the_time_left_at_the_mean_rate() {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::hidden());
        bar.reset_elapsed();
        std::thread::sleep(Duration::from_millis(100));
        bar.inc(10);
        let line = plain_line(&bar, "slots", None);
        assert!(
            line.starts_with("tigadi: progress: 1.0% of 1000 slots done (10), "),
            "{line}"
        );
        let left = line.split("about ").nth(1).expect("a time left");
        let clock: Vec<u64> = left
            .trim_end_matches(" left")
            .split(':')
            .map(|f| f.parse().expect("a clock"))
            .collect();
        let secs = clock[0] * 3600 + clock[1] * 60 + clock[2];
        assert!((9..=30).contains(&secs), "{line}");
    }
}
