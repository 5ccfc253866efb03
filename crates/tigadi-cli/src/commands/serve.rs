//! `tigadi serve`: the tablebase server and web explorer (`tigadi-server`).

use super::CmdResult;
use crate::ServeArgs;

/// Runs the server until interrupted. The rule set comes with each request, so
/// `--rules` does not apply here.
pub fn run(args: &ServeArgs) -> CmdResult {
    // `main` lets SIGPIPE kill the process (right for a command-line filter); a
    // server must instead see a client that went away as a failed write.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition; no handler runs our code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let dir = &args.dir.dir;
    if !dir.is_dir() {
        return Err(format!(
            "tablebase directory {} does not exist (write tables there with `tigadi solve --dir {}`)",
            dir.display(),
            dir.display()
        ));
    }
    let tables =
        tigadi_server::Tablebases::with_cache(dir, tigadi_server::cache_mib(args.cache_mib));
    tigadi_server::run(tables, args.bind, |addr| {
        eprintln!(
            "tigadi: serving {} on http://{addr}/ (Ctrl-C to stop)",
            dir.display()
        );
    })
    .map_err(|e| format!("serve on {}: {e}", args.bind))?;
    Ok(0)
}
