//! A minimal HTTP/1.1 client over one kept-alive connection, and `tigadi serve`
//! started on a free loopback port: enough to test the server without an HTTP
//! library.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An answer: status, headers (names lower case) and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// One connection to a server, reused for every request.
pub struct Client {
    reader: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            reader: BufReader::new(stream),
        }
    }

    /// The connection itself.
    pub fn into_stream(self) -> TcpStream {
        self.reader.into_inner()
    }

    /// `GET path` (already encoded).
    pub fn get(&mut self, path: &str) -> Answer {
        self.request("GET", path, &[], b"")
    }

    /// Sends one request and reads its answer.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\n");
        for (n, v) in headers {
            req.push_str(&format!("{n}: {v}\r\n"));
        }
        if !body.is_empty() {
            req.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        req.push_str("\r\n");
        let s = self.reader.get_mut();
        s.write_all(req.as_bytes()).expect("send");
        s.write_all(body).expect("send body");
        self.read_answer()
    }

    fn read_answer(&mut self) -> Answer {
        let mut line = String::new();
        self.reader.read_line(&mut line).expect("status line");
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {line:?}"));
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line).expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (n, v) = l.split_once(':').expect("header line");
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        let find = |n: &str| headers.iter().find(|(h, _)| h == n).map(|(_, v)| v.clone());
        let mut body = Vec::new();
        if let Some(len) = find("content-length") {
            body.resize(len.parse().expect("length"), 0);
            self.reader.read_exact(&mut body).expect("body");
        } else if find("transfer-encoding").as_deref() == Some("chunked") {
            loop {
                line.clear();
                self.reader.read_line(&mut line).unwrap();
                let n = usize::from_str_radix(line.trim(), 16).expect("chunk size");
                let mut chunk = vec![0; n + 2];
                self.reader.read_exact(&mut chunk).unwrap();
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        }
        Answer {
            status,
            headers,
            body: String::from_utf8(body).expect("UTF-8 body"),
        }
    }
}

/// Percent-encodes a query value.
pub fn enc(text: &str) -> String {
    let mut s = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// A running `tigadi serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its standard error so far (the request log).
    pub log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `tigadi serve --dir DIR --bind 127.0.0.1:0` and waits until it
    /// listens.
    ///
    /// `TIGADI_SERVE_BIN`, when set, names another `tigadi` binary to serve with:
    /// for checking that a test fails against a build without its fix.
    pub fn start(dir: &Path) -> Server {
        let bin = std::env::var_os("TIGADI_SERVE_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_tigadi").into());
        let mut child = Command::new(bin)
            .args([
                "serve",
                "--dir",
                dir.to_str().unwrap(),
                "--bind",
                "127.0.0.1:0",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tigadi serve");
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        err.read_line(&mut first).expect("read the first line");
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        let log = Arc::new(Mutex::new(first));
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Server { child, addr, log }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn client(&self) -> Client {
        Client::connect(&self.addr)
    }

    /// `GET path` on a fresh connection.
    pub fn get(&self, path: &str) -> Answer {
        self.client().get(path)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
