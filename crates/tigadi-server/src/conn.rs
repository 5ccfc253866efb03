//! Connections: the accept loop with its limits, so that idle or slow clients
//! cannot hold the server (issue 26).
//!
//! - the request head must arrive within [`REQUEST_HEAD_TIME_LIMIT`] of the
//!   connection's opening or of the previous answer on it: a client that sends a
//!   partial head, or keeps an idle connection open, is disconnected then;
//! - an answer must make progress: a client that stops reading it (so that the
//!   server's writes wait) for [`WRITE_PROGRESS_LIMIT`] is disconnected (issue 54);
//! - at most [`MAX_CONNECTIONS`] connections are served at once; when all are
//!   taken, the one whose answer has waited longest for its reader (at least
//!   [`EVICT_STALLED_AFTER`]) is closed to make room, and a connection that finds
//!   no room within [`WAIT_FOR_ROOM`] is answered 503 with a JSON reason and
//!   closed, so that stalled readers cannot keep `/health` out;
//! - a client that half-closes its side after its requests still gets their
//!   answers;
//! - a client that opens with the HTTP/2 preface is answered 400 with a JSON
//!   reason saying that the server speaks HTTP/1.1 only (hyper would close the
//!   connection without a word);
//! - hyper answers a request it cannot parse (400), a request target over its
//!   limit (414) or a head over [`MAX_HEAD_BYTES`] (431) itself, with an empty
//!   body; [`JsonErrors`] rewrites those answers into the same status with a JSON
//!   `{"error": ...}` body, like every other error of the server.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

/// Time for a request head to arrive, counted from the connection's opening or
/// from the previous answer on it: both the slow-head (slowloris) limit and the
/// idle keep-alive limit.
pub const REQUEST_HEAD_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Most connections served at once; further ones are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 512;

/// Largest request head read (hyper's read buffer; a longer head is answered 431,
/// however it arrives: see `head_len`).
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Longest time an answer may wait for its client to read before the
/// connection is closed.
pub const WRITE_PROGRESS_LIMIT: Duration = Duration::from_secs(10);

/// The kernel's send buffer of each connection: room for any answer but the
/// largest, so that stalled readers hold little memory (a kernel that grows the
/// buffer itself takes it to megabytes per connection).
pub const SEND_BUFFER_BYTES: usize = 64 * 1024;

/// How long an answer must have waited for its reader before the connection
/// may be closed to make room for a new one.
pub const EVICT_STALLED_AFTER: Duration = Duration::from_millis(500);

/// How long a connection past [`MAX_CONNECTIONS`] waits for room before it is
/// answered 503.
pub const WAIT_FOR_ROOM: Duration = Duration::from_millis(1500);

/// The start of an HTTP/2 connection (RFC 9113, 3.4), as far as a client sends
/// it before any answer.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Time given to open connections to finish once a shutdown is asked for.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `shutdown` resolves, with the limits above.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let open = Arc::new(Open::default());
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(REQUEST_HEAD_TIME_LIMIT)
        .half_close(true)
        .max_buf_size(MAX_HEAD_BYTES);
    // Connections that found the server full and then got room.
    let (admitted_tx, mut admitted) = tokio::sync::mpsc::unbounded_channel();
    tokio::pin!(shutdown);
    loop {
        let (stream, permit) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    // A fixed send buffer rather than the kernel's growing one (to
                    // megabytes): a client that stops reading holds this much.
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER_BYTES);
                    match permits.clone().try_acquire_owned() {
                        Ok(permit) => (stream, permit),
                        Err(_) => {
                            tokio::spawn(wait_for_room(
                                stream,
                                permits.clone(),
                                open.clone(),
                                admitted_tx.clone(),
                            ));
                            continue;
                        }
                    }
                }
                Err(e) => {
                    // Out of file descriptors and the like: wait for connections to
                    // close rather than spin or stop serving.
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        format!("accept: {e}\n").as_bytes(),
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            Some(admitted) = admitted.recv() => admitted,
            _ = &mut shutdown => break,
        };
        let (id, slot) = open.add();
        let service = TowerToHyperService::new(app.clone());
        let conn =
            http.serve_connection(TokioIo::new(JsonErrors::new(stream, slot.clone())), service);
        let conn = graceful.watch(conn);
        let open = open.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = conn => {}
                _ = slot.evict.notified() => {}
            }
            open.remove(id);
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(SHUTDOWN_GRACE) => {}
    }
    Ok(())
}

/// One open connection, as the accept loop sees it.
#[derive(Default)]
struct Slot {
    /// When its answer started waiting for its reader ([`now_ms`]); 0 while it
    /// is not waiting.
    stalled_since: AtomicU64,
    /// Told to close it.
    evict: Notify,
}

/// Milliseconds since the first call, plus one (never 0).
fn now_ms() -> u64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// The open connections, by number.
#[derive(Default)]
struct Open {
    next: AtomicU64,
    slots: Mutex<HashMap<u64, Arc<Slot>>>,
}

impl Open {
    fn add(&self) -> (u64, Arc<Slot>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot::default());
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.insert(id, slot.clone());
        (id, slot)
    }

    fn remove(&self, id: u64) {
        self.slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }

    /// Tells the connection whose answer has waited longest for its reader, at
    /// least [`EVICT_STALLED_AFTER`], to close; false when there is none.
    fn evict_one(&self) -> bool {
        let now = now_ms();
        let limit = EVICT_STALLED_AFTER.as_millis() as u64;
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let longest = slots
            .values()
            .filter_map(|s| {
                let since = s.stalled_since.load(Ordering::Relaxed);
                (since != 0 && now.saturating_sub(since) >= limit).then_some((since, s))
            })
            .min_by_key(|(since, _)| *since);
        match longest {
            Some((_, s)) => {
                // Not picked again while it closes.
                s.stalled_since.store(0, Ordering::Relaxed);
                s.evict.notify_one();
                true
            }
            None => false,
        }
    }
}

/// A connection that found every slot taken: waits up to [`WAIT_FOR_ROOM`] for
/// one, closing a stalled connection to make room where there is one, and is
/// then handed to the accept loop, or answered 503.
async fn wait_for_room(
    stream: TcpStream,
    permits: Arc<Semaphore>,
    open: Arc<Open>,
    admitted: tokio::sync::mpsc::UnboundedSender<(TcpStream, OwnedSemaphorePermit)>,
) {
    let deadline = tokio::time::Instant::now() + WAIT_FOR_ROOM;
    loop {
        open.evict_one();
        let step = tokio::time::Instant::now() + Duration::from_millis(100);
        match tokio::time::timeout_at(step.min(deadline), permits.clone().acquire_owned()).await {
            Ok(Ok(permit)) => {
                let _ = admitted.send((stream, permit));
                return;
            }
            Ok(Err(_)) => return,
            Err(_) if tokio::time::Instant::now() >= deadline => break,
            Err(_) => {}
        }
    }
    refuse(stream).await;
}

/// Answers a connection past [`MAX_CONNECTIONS`]: 503 with a JSON reason, then
/// closes it (reading what the client sent for at most a second, so that the
/// answer is not lost to a reset).
async fn refuse(mut stream: TcpStream) {
    let body = serde_json::json!({
        "error": format!(
            "server busy: {MAX_CONNECTIONS} connections open, the most it serves at once; \
             try again later"
        )
    })
    .to_string();
    let answer = json_answer(503, "Service Unavailable", &body, &[("retry-after", "10")]);
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
        let mut sink = [0u8; 4096];
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
}

/// A whole HTTP/1.1 answer with a JSON body that closes the connection.
fn json_answer(status: u16, reason: &str, body: &str, extra: &[(&str, &str)]) -> String {
    let mut s = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
         cache-control: no-store\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (n, v) in extra {
        s.push_str(&format!("{n}: {v}\r\n"));
    }
    s.push_str("\r\n");
    s.push_str(body);
    s
}

/// The JSON answer that replaces hyper's own empty answer `head` (a whole
/// response head with no body), or `None` when `head` is not one.
fn rewrite(head: &[u8], h2: bool) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let head_text = text.strip_suffix("\r\n\r\n")?;
    if head_text.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = head_text.split("\r\n");
    let status_line = lines.next()?;
    let rest = status_line.strip_prefix("HTTP/1.1 ")?;
    let status: u16 = rest.get(..3)?.parse().ok()?;
    if status < 400 || !lines.any(|l| l.eq_ignore_ascii_case("content-length: 0")) {
        return None;
    }
    let reason = rest.get(4..).unwrap_or("");
    let message = match status {
        400 if h2 => "HTTP/2 is not served: this server speaks HTTP/1.1 only (HTTP/2 \
                      with prior knowledge was asked for)"
            .to_string(),
        400 => "malformed request: not an HTTP/1.1 request head the server can read".to_string(),
        414 => "request target too long: the path and query string may take at most \
                65534 bytes"
            .to_string(),
        431 => head_too_large(),
        _ => format!("{status} {reason}"),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    Some(json_answer(status, reason, &body, &[]).into_bytes())
}

/// The message of a 431: the head's limits.
pub(crate) fn head_too_large() -> String {
    format!("request head too large: at most {MAX_HEAD_BYTES} bytes and 100 header fields")
}

/// The length of `request`'s head as an HTTP/1.1 client sends it without
/// optional spaces: request line, header lines, the blank line. Hyper checks
/// the head's length only while a head is incomplete, so that a larger head that
/// arrives in one read passes it; this is the exact check
/// ([`crate::head_limit`]).
pub(crate) fn head_len<B>(request: &axum::http::Request<B>) -> usize {
    let target = request
        .uri()
        .path_and_query()
        .map_or(1, |p| p.as_str().len());
    let line = request.method().as_str().len() + 1 + target + 1 + "HTTP/1.1\r\n".len();
    let fields: usize = request
        .headers()
        .iter()
        .map(|(n, v)| n.as_str().len() + 2 + v.len() + 2)
        .sum();
    line + fields + 2
}

/// A connection whose writes pass through unchanged, except for hyper's own
/// empty error answers (see the module docs), which become JSON answers; whose
/// writes fail once they have waited [`WRITE_PROGRESS_LIMIT`] for the client to
/// read; and whose HTTP/2 preface is made a malformed HTTP/1.1 head (hyper closes
/// on the preface without an answer), answered with a JSON 400 that says so.
pub struct JsonErrors<S> {
    inner: S,
    /// A replacement being written: its bytes, how many are written, and how many
    /// bytes of hyper's answer it stands for.
    pending: Option<(Vec<u8>, usize, usize)>,
    /// What the accept loop knows of this connection (when its writes stalled).
    slot: Arc<Slot>,
    /// Running while a write waits for the client to read.
    stall: Option<Pin<Box<Sleep>>>,
    /// Nothing has been read yet.
    first_read: bool,
    /// The client opened with the HTTP/2 preface.
    h2: bool,
}

impl<S> JsonErrors<S> {
    /// Wraps `inner`, reporting its stalls to `slot`.
    fn new(inner: S, slot: Arc<Slot>) -> JsonErrors<S> {
        JsonErrors {
            inner,
            pending: None,
            slot,
            stall: None,
            first_read: true,
            h2: false,
        }
    }

    /// Passes on a write's outcome `r`, keeping the time its writes have waited
    /// for the client: an error once that is [`WRITE_PROGRESS_LIMIT`].
    fn progress<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if r.is_ready() {
            if self.stall.take().is_some() {
                self.slot.stalled_since.store(0, Ordering::Relaxed);
            }
            return r;
        }
        if self.stall.is_none() {
            self.stall = Some(Box::pin(tokio::time::sleep(WRITE_PROGRESS_LIMIT)));
            // Cleared by the eviction that picks it, so that it is picked once.
            self.slot.stalled_since.store(now_ms(), Ordering::Relaxed);
        }
        let stall = self.stall.as_mut().expect("just set");
        if stall.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading its answer",
            )));
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Writes the pending replacement; `Ready(Ok(n))` with the length of the answer
    /// it replaced once all of it is written.
    fn drive(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        while let Some((bytes, done, stands_for)) = &mut self.pending {
            if *done == bytes.len() {
                let n = *stands_for;
                self.pending = None;
                return Poll::Ready(Ok(n));
            }
            match Pin::new(&mut self.inner).poll_write(cx, &bytes[*done..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *done += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(0))
    }

    /// Starts a replacement when `data` is one of hyper's empty error answers.
    fn check(&mut self, data: &[u8]) -> bool {
        if data.len() > 1024 || !data.starts_with(b"HTTP/1.1 ") {
            return false;
        }
        match rewrite(data, self.h2) {
            Some(bytes) => {
                self.pending = Some((bytes, 0, data.len()));
                true
            }
            None => false,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if self.first_read && r.is_ready() {
            self.first_read = false;
            let read = &mut buf.filled_mut()[before..];
            if read.starts_with(&H2_PREFACE[..14]) {
                // "PRI * HTTP/2.0" becomes "PRI * HTTP/2.x": a version hyper
                // answers 400.
                read[13] = b'x';
                self.h2 = true;
            }
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = if self.pending.is_some() || self.check(buf) {
            self.drive(cx)
        } else {
            Pin::new(&mut self.inner).poll_write(cx, buf)
        };
        self.progress(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none() {
            let total: usize = bufs.iter().map(|b| b.len()).sum();
            if total <= 1024 && bufs.first().is_some_and(|b| b.starts_with(b"HTTP/1.1 ")) {
                let data: Vec<u8> = bufs.iter().flat_map(|b| b.iter().copied()).collect();
                self.check(&data);
            }
        }
        let r = if self.pending.is_some() {
            self.drive(cx)
        } else {
            Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
        };
        self.progress(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.pending.is_some() {
            let r = self.drive(cx);
            match self.progress(cx, r) {
                Poll::Ready(Ok(_)) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        let r = Pin::new(&mut self.inner).poll_flush(cx);
        self.progress(cx, r)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn only_empty_error_answers_are_rewritten() {
        let canned =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let r = String::from_utf8(rewrite(canned, false).unwrap()).unwrap();
        assert!(r.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        let body = r.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("head too large"));
        assert!(r.contains(&format!("content-length: {}\r\n", body.len())));
        // Answers with a body, and successful ones, pass unchanged.
        assert!(rewrite(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", false).is_none());
        assert!(rewrite(
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n",
            false
        )
        .is_none());
        assert!(rewrite(
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}",
            false
        )
        .is_none());
    }
}
