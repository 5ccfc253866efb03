//! Connections: the accept loop with its limits, so that idle or slow clients
//! cannot hold the server (issue 26).
//!
//! - the request head must arrive within [`REQUEST_HEAD_TIME_LIMIT`] of the
//!   connection's opening or of the previous answer on it: a client that sends a
//!   partial head, or keeps an idle connection open, is disconnected then;
//! - at most [`MAX_CONNECTIONS`] connections are served at once; one more is
//!   answered 503 with a JSON reason and closed at once;
//! - hyper answers a request it cannot parse (400), a request target over its
//!   limit (414) or a head over [`MAX_HEAD_BYTES`] (431) itself, with an empty
//!   body; [`JsonErrors`] rewrites those answers into the same status with a JSON
//!   `{"error": ...}` body, like every other error of the server.

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// Time for a request head to arrive, counted from the connection's opening or
/// from the previous answer on it: both the slow-head (slowloris) limit and the
/// idle keep-alive limit.
pub const REQUEST_HEAD_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Most connections served at once; further ones are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 512;

/// Largest request head read (hyper's read buffer; a longer head is answered 431).
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Time given to open connections to finish once a shutdown is asked for.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` until `shutdown` resolves, with the limits above.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(REQUEST_HEAD_TIME_LIMIT)
        .max_buf_size(MAX_HEAD_BYTES);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
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
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let conn = http.serve_connection(TokioIo::new(JsonErrors::new(stream)), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
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
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
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
        400 => "malformed request: not an HTTP/1.1 request head the server can read".to_string(),
        414 => "request target too long: the path and query string may take at most \
                65534 bytes"
            .to_string(),
        431 => {
            format!("request head too large: at most {MAX_HEAD_BYTES} bytes and 100 header fields")
        }
        _ => format!("{status} {reason}"),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    Some(json_answer(status, reason, &body, &[]).into_bytes())
}

/// A connection whose writes pass through unchanged, except for hyper's own
/// empty error answers (see the module docs), which become JSON answers.
pub struct JsonErrors<S> {
    inner: S,
    /// A replacement being written: its bytes, how many are written, and how many
    /// bytes of hyper's answer it stands for.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<S> JsonErrors<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> JsonErrors<S> {
        JsonErrors {
            inner,
            pending: None,
        }
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
        match rewrite(data) {
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
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_some() || self.check(buf) {
            return self.drive(cx);
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
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
        if self.pending.is_some() {
            return self.drive(cx);
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.pending.is_some() {
            match self.drive(cx) {
                Poll::Ready(Ok(_)) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Pin::new(&mut self.inner).poll_flush(cx)
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
        let r = String::from_utf8(rewrite(canned).unwrap()).unwrap();
        assert!(r.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        let body = r.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("head too large"));
        assert!(r.contains(&format!("content-length: {}\r\n", body.len())));
        // Answers with a body, and successful ones, pass unchanged.
        assert!(rewrite(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}").is_none());
    }
}
