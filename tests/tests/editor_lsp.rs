//! End to end: the JSON Schema of `cargo xtask schema` in a real editor back end.
//!
//! The test drives Red Hat's yaml-language-server (the YAML back end of VS Code, Neovim,
//! Helix and Zed) over LSP stdio, the way an editor does, and proves that
//!
//! - the `# yaml-language-server: $schema=…` modeline of a definition file selects the
//!   checked-in schema: a typo'd key, a bad keyword and an out-of-range number are each
//!   reported at their place (where `cargo xtask validate` reports them too), while shipped
//!   files get no diagnostic at all;
//! - completion inside a register or an event offers exactly the loader's keys, each with its
//!   documentation, and keyword values offer the loader's words;
//! - hover on every key of every mapping shows that key's description (the few places where
//!   the server shows another one are listed in [`HOVER_GAPS`], with the cause).
//!
//! The server is the version pinned by `scripts/editor-tools/package-lock.json`, installed by
//! `scripts/install-yaml-language-server.sh` (`npm ci` into `target/editor-tools`) the first
//! time it is needed. Without `node` and `npm` the tests print a note and pass, as the
//! `../shared` corpus tests do; if the install itself fails they fail with its output.
//!
//! Each test starts its own server (about 0.3 s). Every read from the server has a deadline,
//! so a hung server fails the test with a message, and the server is killed on drop.
//!
//! Files are written below `CARGO_TARGET_TMPDIR` in the repository's layout,
//! `pmu-defs/defs/<vendor>/…` beside a copy of `pmu-defs/schema/generation.schema.json`, so
//! the modelines' relative paths resolve exactly as they do in a checkout.

use pmu_defs::schema::{MAPPINGS, SCHEMA_PATH};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Longest the server may take to answer one request or publish one file's diagnostics.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The server inside the install directory.
const SERVER_BIN: &str = "node_modules/yaml-language-server/bin/yaml-language-server";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

// ---------------------------------------------------------------------------------------------
// Installation

/// The install directory: `editor-tools` in Cargo's target directory.
fn install_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is <target>/tmp")
        .join("editor-tools")
}

fn tail(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// `tool --version`, or `None` when it cannot run.
fn version_of(tool: &str) -> Option<String> {
    let out = Command::new(tool)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The server's entry script, installed when missing or older than the lock file; `None`
/// (after a note) when node or npm is absent.
fn server_script() -> Option<&'static Path> {
    static SCRIPT: OnceLock<Result<Option<PathBuf>, String>> = OnceLock::new();
    match SCRIPT.get_or_init(install) {
        Ok(Some(p)) => Some(p),
        Ok(None) => {
            eprintln!(
                "note: skipping the editor end-to-end test: it needs Node.js and npm \
                 (`node` and `npm` on PATH) to run yaml-language-server"
            );
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn install() -> Result<Option<PathBuf>, String> {
    let (Some(node), Some(npm)) = (version_of("node"), version_of("npm")) else {
        return Ok(None);
    };
    let dest = install_dir();
    let bin = dest.join(SERVER_BIN);
    let lock_file = root().join("scripts/editor-tools/package-lock.json");
    let want = std::fs::read(&lock_file)
        .map_err(|e| format!("cannot read {}: {e}", lock_file.display()))?;
    // The script records the lock file it installed from.
    let installed =
        || bin.is_file() && std::fs::read(dest.join(".installed-lock")).ok() == Some(want.clone());
    if installed() {
        return Ok(Some(bin));
    }
    // Another test process (a second `cargo test`) may be installing at the same moment.
    std::fs::create_dir_all(&dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    let lock_path = dest.with_extension("lock");
    let lock = std::fs::File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if installed() {
        return Ok(Some(bin));
    }
    let script = root().join("scripts/install-yaml-language-server.sh");
    eprintln!(
        "yaml-language-server is missing from {}: running {} (one time; node {node}, npm {npm})",
        dest.display(),
        script.display()
    );
    let started = Instant::now();
    let out = Command::new("bash")
        .arg(&script)
        .arg(&dest)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() || !installed() {
        return Err(format!(
            "the editor end-to-end test needs yaml-language-server, and {} could not install it \
             ({}).\n--- script output (last lines) ---\n{}\n{}",
            script.display(),
            out.status,
            tail(&out.stdout, 20),
            tail(&out.stderr, 20)
        ));
    }
    eprintln!("installed yaml-language-server in {:?}", started.elapsed());
    Ok(Some(bin))
}

// ---------------------------------------------------------------------------------------------
// The file layout

/// The temporary copy of the repository layout: the schema at its checked-in path.
fn layout() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-lsp");
        let schema = dir.join(SCHEMA_PATH);
        std::fs::create_dir_all(schema.parent().unwrap()).unwrap();
        std::fs::copy(root().join(SCHEMA_PATH), &schema)
            .unwrap_or_else(|e| panic!("copying the schema to {}: {e}", schema.display()));
        std::fs::canonicalize(&dir).unwrap()
    })
}

/// Writes `text` at `rel` (relative to the workspace root) in the layout.
fn write(rel: &str, text: &str) -> PathBuf {
    let path = layout().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// A `file://` URI, percent-encoding what a URI path may not hold.
fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

// ---------------------------------------------------------------------------------------------
// The LSP client

enum Incoming {
    Message(Value),
    Closed(String),
}

/// One yaml-language-server process and its JSON-RPC stream.
struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Incoming>,
    stderr: Arc<Mutex<Vec<u8>>>,
    next_id: i64,
    /// Notifications that arrived while waiting for something else.
    queued: VecDeque<Value>,
    /// `workspace/configuration` requests answered so far.
    configured: usize,
    /// Server-to-client requests, by method, for the failure messages.
    requests_seen: BTreeMap<String, usize>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `Content-Length`-framed messages until the stream ends.
fn read_messages(stdout: impl Read, tx: mpsc::Sender<Incoming>) {
    let mut r = BufReader::new(stdout);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            match r.read_line(&mut line) {
                Ok(0) => {
                    let _ = tx.send(Incoming::Closed("the server closed its output".into()));
                    return;
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = tx.send(Incoming::Closed(format!("reading a header: {e}")));
                    return;
                }
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let Some(length) = length else {
            let _ = tx.send(Incoming::Closed("a message without Content-Length".into()));
            return;
        };
        let mut body = vec![0; length];
        if let Err(e) = r.read_exact(&mut body) {
            let _ = tx.send(Incoming::Closed(format!(
                "reading a {length}-byte body: {e}"
            )));
            return;
        }
        let msg = match serde_json::from_slice(&body) {
            Ok(v) => Incoming::Message(v),
            Err(e) => Incoming::Closed(format!(
                "a body that is not JSON ({e}): {}",
                String::from_utf8_lossy(&body)
            )),
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// What the client answers to `workspace/configuration` for `section`: the settings the
/// server reads (yaml-language-server's README, "Language Server Settings"). The schema store
/// is off so nothing is fetched from the network; only the modeline picks a schema.
fn settings(section: Option<&str>) -> Value {
    match section {
        Some("yaml") => json!({
            "validate": true,
            "completion": true,
            "hover": true,
            "schemas": {},
            "schemaStore": { "enable": false },
            "kubernetesCRDStore": { "enable": false },
        }),
        _ => Value::Null,
    }
}

impl Server {
    /// Starts the server and completes the `initialize` handshake with the layout as the
    /// workspace; `None` when node or npm is absent.
    fn start() -> Option<Server> {
        let script = server_script()?;
        let mut child = Command::new("node")
            .arg(script)
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start node {}: {e}", script.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || read_messages(stdout, tx));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let mut s = Server {
            child,
            stdin,
            rx,
            stderr,
            next_id: 0,
            queued: VecDeque::new(),
            configured: 0,
            requests_seen: BTreeMap::new(),
        };
        let ws = file_uri(layout());
        let init = s.request(
            "initialize",
            json!({
                "processId": std::process::id(),
                "clientInfo": { "name": "pmu-regs editor_lsp test" },
                "locale": "en",
                "rootUri": ws,
                "workspaceFolders": [{ "uri": ws, "name": "pmu-regs" }],
                "capabilities": {
                    "workspace": { "configuration": true, "workspaceFolders": true },
                    "textDocument": {
                        "synchronization": { "dynamicRegistration": false },
                        "completion": {
                            "completionItem": {
                                "snippetSupport": true,
                                "documentationFormat": ["markdown", "plaintext"]
                            }
                        },
                        "hover": { "contentFormat": ["markdown", "plaintext"] },
                        "publishDiagnostics": { "relatedInformation": true }
                    }
                }
            }),
        );
        assert_eq!(
            init["serverInfo"]["name"], "yaml-language-server",
            "initialize: {init}"
        );
        let caps = &init["capabilities"];
        assert_eq!(caps["hoverProvider"], true, "{caps}");
        assert!(caps["completionProvider"].is_object(), "{caps}");
        s.notify("initialized", json!({}));
        // The server pulls its settings after `initialized`; open files only once they are in.
        let deadline = Instant::now() + TIMEOUT;
        while s.configured == 0 {
            if let Some(m) = s.recv(deadline, "the workspace/configuration request") {
                s.queued.push_back(m);
            }
        }
        Some(s)
    }

    fn stderr_tail(&self) -> String {
        // Let the reader thread catch up with a server that just died.
        std::thread::sleep(Duration::from_millis(100));
        tail(&self.stderr.lock().unwrap(), 20)
    }

    fn send(&mut self, msg: &Value) {
        let body = serde_json::to_vec(msg).unwrap();
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        let sent = self
            .stdin
            .write_all(header.as_bytes())
            .and_then(|()| self.stdin.write_all(&body))
            .and_then(|()| self.stdin.flush());
        if let Err(e) = sent {
            panic!(
                "cannot write to the server ({e}); its stderr:\n{}",
                self.stderr_tail()
            );
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message before `deadline`; a server-to-client request is answered here and
    /// gives `None`.
    fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = match self.rx.recv_timeout(left) {
            Ok(Incoming::Message(m)) => m,
            Ok(Incoming::Closed(why)) => panic!(
                "waiting for {waiting_for}: {why} (exit: {:?}); its stderr:\n{}",
                self.child.try_wait(),
                self.stderr_tail()
            ),
            Err(RecvTimeoutError::Timeout) => panic!(
                "yaml-language-server sent no {waiting_for} within {TIMEOUT:?} \
                 (server requests answered: {:?}); its stderr:\n{}",
                self.requests_seen,
                self.stderr_tail()
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "waiting for {waiting_for}: the reader thread stopped; stderr:\n{}",
                self.stderr_tail()
            ),
        };
        if msg.get("method").is_some() && msg.get("id").is_some() {
            self.answer(&msg);
            return None;
        }
        Some(msg)
    }

    /// Replies to a request the server sends the client, so that it never waits on us.
    fn answer(&mut self, req: &Value) {
        let method = req["method"].as_str().unwrap_or_default().to_owned();
        *self.requests_seen.entry(method.clone()).or_default() += 1;
        let id = req["id"].clone();
        let reply = match method.as_str() {
            "workspace/configuration" => {
                self.configured += 1;
                let items = req["params"]["items"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let result: Vec<Value> = items
                    .iter()
                    .map(|item| settings(item["section"].as_str()))
                    .collect();
                json!({ "jsonrpc": "2.0", "id": id, "result": result })
            }
            "client/registerCapability"
            | "client/unregisterCapability"
            | "window/workDoneProgress/create"
            | "window/showMessageRequest" => {
                json!({ "jsonrpc": "2.0", "id": id, "result": null })
            }
            _ => json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": { "code": -32601, "message": format!("the test client does not implement {method}") }
            }),
        };
        self.send(&reply);
    }

    /// Sends a request and returns its result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let deadline = Instant::now() + TIMEOUT;
        let what = format!("answer to {method}");
        loop {
            let Some(m) = self.recv(deadline, &what) else {
                continue;
            };
            if m.get("method").is_none() && m["id"] == id {
                if let Some(err) = m.get("error") {
                    panic!("{method} failed: {err}");
                }
                return m["result"].clone();
            }
            self.queued.push_back(m);
        }
    }

    /// Opens `path` (already written) and returns the diagnostics the server publishes for it.
    fn open(&mut self, path: &Path) -> (String, Vec<Value>) {
        let uri = file_uri(path);
        let text = std::fs::read_to_string(path).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "yaml", "version": 1, "text": text } }),
        );
        let what = format!("textDocument/publishDiagnostics for {uri}");
        let is_ours = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
        };
        if let Some(i) = self.queued.iter().position(is_ours) {
            let m = self.queued.remove(i).unwrap();
            return (uri, m["params"]["diagnostics"].as_array().unwrap().clone());
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let Some(m) = self.recv(deadline, &what) else {
                continue;
            };
            if is_ours(&m) {
                return (uri, m["params"]["diagnostics"].as_array().unwrap().clone());
            }
            self.queued.push_back(m);
        }
    }

    /// The hover's Markdown at `line:character` (0-based), or `None` when there is none.
    fn hover(&mut self, uri: &str, line: usize, character: usize) -> Option<String> {
        let r = self.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        );
        r["contents"]["value"].as_str().map(str::to_owned)
    }

    /// The completion items at `line:character` (0-based).
    fn complete(&mut self, uri: &str, line: usize, character: usize) -> Vec<Value> {
        let r = self.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        );
        // CompletionList or CompletionItem[].
        r.get("items")
            .unwrap_or(&r)
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers over documents and the schema

/// The 0-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle:?}"))
}

/// The byte offset of an LSP position (UTF-16 columns) in `text`.
fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let col = pos["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if units >= col || c == '\n' {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// The text an LSP range covers.
fn text_at<'a>(text: &'a str, range: &Value) -> &'a str {
    &text[offset(text, &range["start"])..offset(text, &range["end"])]
}

/// The description paragraph of a hover: without the title, examples, allowed values and
/// source link, and with Markdown escapes removed.
fn hover_description(markdown: &str) -> String {
    let mut paras: Vec<&str> = Vec::new();
    for p in markdown.split("\n\n") {
        if p.starts_with("####") {
            continue;
        }
        if ["Example:", "Examples:", "Allowed Values:", "Source:"]
            .iter()
            .any(|s| p.starts_with(s))
        {
            break;
        }
        paras.push(p);
    }
    let joined = paras.join("\n\n");
    let mut out = String::new();
    let mut chars = joined.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out.trim().to_owned()
}

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(pmu_defs::schema::schema)
}

/// The description of `key` in the mapping definition `def`.
fn description(def: &str, key: &str) -> &'static str {
    schema()["definitions"][def]["properties"][key]["description"]
        .as_str()
        .unwrap_or_else(|| panic!("`{def}.{key}` has no description"))
}

/// The mapping definition (one with `properties`) that a property's value holds, if any:
/// through `$ref`, array `items` and `allOf`/`anyOf`/`oneOf` branches.
fn mapping_of(v: &Value) -> Option<&'static str> {
    let defs = &schema()["definitions"];
    fn named(r: &Value) -> Option<&str> {
        r.as_str()?.strip_prefix("#/definitions/")
    }
    let def = if let Some(name) = named(&v["$ref"]) {
        name
    } else if let Some(name) = named(&v["items"]["$ref"]) {
        name
    } else {
        return ["allOf", "anyOf", "oneOf"]
            .iter()
            .filter_map(|k| v[k].as_array())
            .flatten()
            .find_map(mapping_of);
    };
    let (name, _) = defs.as_object()?.get_key_value(def)?;
    if defs[def]["properties"].is_object() {
        Some(name.as_str())
    } else {
        mapping_of(&defs[def])
    }
}

/// Every key the schema's mappings have, as `definition.key`.
fn every_key() -> BTreeSet<String> {
    MAPPINGS
        .iter()
        .flat_map(|(def, keys)| keys.iter().map(move |k| format!("{def}.{k}")))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Validation through the modeline

/// A register with a typo'd key, a bad keyword and an out-of-range number.
const BAD: &str = "\
# yaml-language-server: $schema=../../schema/generation.schema.json
generation: fixture-bad
extends: intel-v3
title: Three mistakes
registers:
  - name: MY_COUNTER_CTL
    mrs: 0x38F
    width: 65
    access: read-wrte
    fields:
      - name: EN
        bits: 0
events:
  - { name: MY.EVENT, event: 0x3C, umask: 0x01 }
";

#[test]
fn modeline_schema_reports_each_mistake_at_its_place() {
    let Some(mut s) = Server::start() else { return };
    let path = write("pmu-defs/defs/intel/fixture-bad.yaml", BAD);
    let (_, diags) = s.open(&path);

    let access_words: Vec<&str> =
        schema()["definitions"]["register"]["properties"]["access"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
    // (the text the diagnostic underlines, what its message must say, the loader's code)
    let want: [(&str, Vec<&str>, &str); 3] = [
        ("mrs", vec!["mrs", "not allowed"], "unknown-key"),
        ("65", vec!["maximum", "64"], "out-of-range"),
        ("read-wrte", access_words.clone(), "invalid-value"),
    ];
    assert_eq!(
        diags.len(),
        want.len(),
        "one diagnostic per mistake, got {diags:#?}"
    );
    // What `cargo xtask validate` says about the same text (it also needs the parents).
    let mut loader = pmu_defs::Loader::new();
    for v in 1..=3 {
        loader.add_path(&pmu_defs::defs_dir().join(format!("intel/v{v}.yaml")));
    }
    loader.add_str("fixture-bad.yaml", BAD);
    let loaded = loader.finish();
    for (under, words, code) in want {
        let d = diags
            .iter()
            .find(|d| text_at(BAD, &d["range"]) == under)
            .unwrap_or_else(|| panic!("no diagnostic underlines `{under}`: {diags:#?}"));
        let line = d["range"]["start"]["line"].as_u64().unwrap() as usize;
        assert_eq!(line, line_of(BAD, under), "{d}");
        let message = d["message"].as_str().unwrap();
        for w in words {
            assert!(message.contains(w), "`{under}`: {message:?} lacks {w:?}");
        }
        assert_eq!(d["severity"], 1, "an error: {d}");
        // The schema came from the modeline, resolved against the file's directory.
        assert!(
            d["source"]
                .as_str()
                .is_some_and(|s| s.starts_with("yaml-schema:")),
            "{d}"
        );
        let schema_uri = d["data"]["schemaUri"][0].as_str().unwrap_or_default();
        assert!(
            schema_uri.ends_with(&format!("/{SCHEMA_PATH}")),
            "schema {schema_uri:?}"
        );
        // The loader reports the same place.
        let start = d["range"]["start"]["character"].as_u64().unwrap() as usize;
        assert!(
            loaded.diagnostics.iter().any(|ld| {
                let lc = loaded.sources.line_col(ld.span());
                ld.code == code && lc.line == line + 1 && lc.col == start + 1
            }),
            "`{under}`: the loader has no `{code}` at {}:{}:\n{}",
            line + 1,
            start + 1,
            loaded.render_diagnostics()
        );
    }
}

/// Shipped files (the hand-written generations and an imported core model) in their own
/// places: no diagnostic, and the schema is applied (hover documents their keys).
#[test]
fn shipped_definition_files_get_no_diagnostics() {
    let Some(mut s) = Server::start() else { return };
    let files = [
        "pmu-defs/defs/intel/v1.yaml",
        "pmu-defs/defs/intel/v2.yaml",
        "pmu-defs/defs/intel/v3.yaml",
        "pmu-defs/defs/intel/v4.yaml",
        "pmu-defs/defs/intel/v5.yaml",
        "pmu-defs/defs/intel/v6.yaml",
        "pmu-defs/defs/amd/k7.yaml",
        "pmu-defs/defs/amd/core.yaml",
        "pmu-defs/defs/amd/perfmon-v2.yaml",
        "pmu-defs/defs/intel/models/skylake.yaml",
    ];
    let generation_doc = description("generation", "generation");
    for rel in files {
        let text =
            std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let started = Instant::now();
        let (uri, diags) = s.open(&write(rel, &text));
        eprintln!("{rel}: diagnostics in {:?}", started.elapsed());
        assert!(diags.is_empty(), "{rel}: {diags:#?}");
        let line = text
            .lines()
            .position(|l| l.starts_with("generation:"))
            .unwrap_or_else(|| panic!("{rel} has no `generation:` line"));
        let hover = s.hover(&uri, line, 2).unwrap_or_default();
        assert_eq!(
            hover_description(&hover),
            generation_doc,
            "{rel}: hover on `generation`: {hover:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Completion

/// Blank lines inside a register and an event, and a keyword without its value (built with
/// `concat!` so that the lines' trailing spaces are visible).
const COMPLETION: &str = concat!(
    "# yaml-language-server: $schema=../../schema/generation.schema.json\n",
    "generation: fixture-completion\n",
    "extends: intel-v3\n",
    "registers:\n",
    "  - name: MY_CTL\n",
    "    \n",
    "  - name: MY_OTHER_CTL\n",
    "    access: \n",
    "events:\n",
    "  - name: MY.EVENT\n",
    "    \n",
);

#[test]
fn completion_offers_the_loaders_keys_with_their_documentation() {
    let Some(mut s) = Server::start() else { return };
    let path = write("pmu-defs/defs/intel/fixture-completion.yaml", COMPLETION);
    let (uri, _) = s.open(&path);
    let blank = |after: &str| line_of(COMPLETION, after) + 1;

    for (def, line, must) in [
        (
            "register",
            blank("name: MY_CTL"),
            &["msr", "width", "fields", "access"][..],
        ),
        (
            "event",
            blank("name: MY.EVENT"),
            &["event", "umask", "counters", "msr"][..],
        ),
    ] {
        let items = s.complete(&uri, line, 4);
        let got: BTreeSet<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
        // Every key of the mapping but `name`, which the entry already has.
        let keys = MAPPINGS.iter().find(|(d, _)| *d == def).unwrap().1;
        let want: BTreeSet<&str> = keys.iter().copied().filter(|k| *k != "name").collect();
        assert_eq!(got, want, "completion in a {def}");
        for k in must {
            assert!(got.contains(k), "{def}: no `{k}`");
        }
        for item in &items {
            let label = item["label"].as_str().unwrap();
            let doc = match &item["documentation"] {
                Value::String(s) => s.as_str(),
                other => other["value"].as_str().unwrap_or_default(),
            };
            assert_eq!(doc, description(def, label), "{def}.{label}");
            assert!(
                item["insertText"]
                    .as_str()
                    .or(item["textEdit"]["newText"].as_str())
                    .is_some_and(|t| t.starts_with(&format!("{label}:"))),
                "{def}.{label} inserts the key: {item}"
            );
        }
    }

    // A keyword's value: the loader's words.
    let line = line_of(COMPLETION, "access: ");
    let items = s.complete(&uri, line, "    access: ".len());
    let got: BTreeSet<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    let want: BTreeSet<&str> = schema()["definitions"]["register"]["properties"]["access"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(got, want, "completion of `access:`");
}

// ---------------------------------------------------------------------------------------------
// Hover

/// Every key of every mapping, one per line (block style, so each key can be pointed at),
/// with values valid for the schema.
const EVERY_KEY: &str = "\
# yaml-language-server: $schema=../../schema/generation.schema.json
generation: fixture-every-key
vendor: intel
extends: intel-v3
title: Every key
manual: Intel SDM Vol. 3B §18.2.1.1
doc: Every key of the format.
source: FIX/events/fixture_core.json
cpus:
  - family-model: GenuineIntel-6-97
    version: V1
    core-type: 0x20
    native-model-id: 0x000001
    core-role: Atom
detect:
  leaf: MY_LEAF
  register: eax
  field: MASK
  at-least: 1
  family-at-least: 6
perfmon-cores:
  - fixture_core
pmu:
  encoding:
    event: EVENT_SELECT
    umask: UMASK
    umask2: UMASK2
    eq: EQ
    cmask: CMASK
    inv: INV
    edge: EDGE
    any: ANY
    usr: USR
    os: OS
    int: INT
    en: EN
registers:
  - name: MY_SELECT
    renames: OLD_SELECT
    doc: A family.
    manual: Intel SDM Vol. 3B §18.2.1.1
    msr:
      base: 0x186
      count: 4
      stride: 1
    width: 64
    access: read-write
    role: event-select
    reset: 0b0
    requires: CPUID.01H:EDX.DS[21] = 1
    count-from:
      leaf: MY_LEAF
      register: eax
      field: MASK
      as: depth-bitmap
    remove-fields: [PC]
    fields:
      - name: EN
        bits: 1:0
        array:
          count: 3
          stride: 4
        access: read-only
        per-counter: fixed
        role: privilege
        doc: Enable.
        values:
          - name: ALL
            value: 3
            doc: All.
        deprecated:
          since: intel-v5
          when: CPUID.0AH:EDX[15] = 1
          doc: Gone.
        requires: IA32_PERF_CAPABILITIES.FW_WRITE[13] = 1
      - name: TX
        bits: 32
        instances:
          - 2
  - name: MY_SINGLE
    msr: 0x38F
  - name: MY_CFG
    msr:
      base: 0x1A02
      count: 3
      stride: 4
    alias-msr:
      base: 0x1B02
      stride: 4
    per-counter: fixed
cpuid:
  - name: MY_LEAF
    leaf: 0x23
    subleaf: 0
    doc: A leaf.
    manual: Intel SDM Vol. 2A, CPUID
    eax:
      - name: MASK
        bits: 7:0
    ebx: []
    ecx: []
    edx: []
events:
  - name: MY.EVENT
    event: 0x0E
    umask: 0x01
    umask2: 0
    eq: false
    cmask: 1
    inv: true
    edge: false
    any: false
    counters: [0-3]
    fixed: 0
    counters-ht-off: [0-7]
    pebs-counters:
      general: [0-1]
      fixed: [0]
    pdist-counters: [0]
    pdir-counters: [0]
    cpuid-bit: 0
    msr:
      index: 0x1A6
      value: 0x10001
    pebs: 2
    collect-pebs-record: 3
    precise: true
    speculative: true
    deprecated: false
    taken-alone: false
    data-la: true
    l1-hit-indication: false
    offcore: true
    offmodule: false
    msr-per-umask: false
    ellc: false
    precise-store: false
    errata: [SKL057]
    sample-after: 2000003
    doc: Counts.
    allow:
      - code: counter-not-in-event
        reason: Reviewed.
constraints:
  - id: my-rule
    register: MY_SELECT
    when: { EN: 1 }
    severity: warning
    message: Suspect.
    manual: Intel SDM Vol. 3B §18.2.1.1
generic-events:
  manual: Linux arch/x86/events/intel/core.c, intel_perfmon_event_map
  events:
    cpu-cycles: event=0x3c
    instructions: event=0xc0
    cache-references: event=0x2e,umask=0x4f
    cache-misses: event=0x2e,umask=0x41
    branch-instructions: event=0xc4
    branch-misses: event=0xc5
    bus-cycles: event=0x3c,umask=0x01
    stalled-cycles-frontend: event=0x0e,umask=0x01,inv,cmask=1
    stalled-cycles-backend: event=0xb1,umask=0x3f,inv,cmask=1
    ref-cycles: event=0x00,umask=0x03
remove:
  registers: [IA32_A_PMC]
  cpuid: [OLD_LEAF]
  events: [OLD.EVENT]
  constraints: [old-rule]
  generic-events: [bus-cycles]
";

/// Keys whose hover shows another text than their own description (`definition.key`, or
/// `definition.key@entry` for one entry), with a part of what it shows instead.
///
/// yaml-language-server (`yamlHover.js`, 1.25.0) shows the first description among the
/// subschemas that matched the value, and it records them innermost first: a `description`
/// on a subschema that applies to the same value (an `allOf` or `anyOf` branch, or the
/// definition such a branch `$ref`s) hides the property's own. A property that is just a
/// `$ref` with a sibling `description` is fine (every `name`, `pmu`, …): the server keeps the
/// sibling. So `pmu_defs::schema` gives definitions reached through `allOf` branches
/// (`msr-family`, `counter-set-map`) a `$comment` instead (a unit test there keeps it so), and
/// every key shows its own text: the list is empty. A new gap fails the test until it is fixed
/// or listed here with its cause.
const HOVER_GAPS: &[(&str, &str)] = &[];

/// Whether the `HOVER_GAPS` entry `gap` (`definition.key`, or `definition.key@entry` for one
/// entry) names the key hovered at `at` (`definition.key@entry`).
fn is_gap(gap: &str, at: &str) -> bool {
    gap == at || (!gap.contains('@') && at.split('@').next() == Some(gap))
}

#[test]
fn hover_shows_each_keys_description() {
    let Some(mut s) = Server::start() else { return };
    let path = write("pmu-defs/defs/intel/fixture-every-key.yaml", EVERY_KEY);
    let (uri, diags) = s.open(&path);
    assert!(diags.is_empty(), "the fixture is valid: {diags:#?}");

    // Walk the block structure: (indent, mapping definition, entry name) of open mappings.
    let mut open: Vec<(usize, &str, String)> = vec![(0, "generation", String::new())];
    let mut covered = BTreeSet::new();
    let mut gaps: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = 0;
    for (line, text) in EVERY_KEY.lines().enumerate() {
        let body = text.trim_start_matches(' ');
        let (indent, body) = match body.strip_prefix("- ") {
            Some(rest) => (text.len() - rest.len(), rest),
            None => (text.len() - body.len(), body),
        };
        let Some((key, value)) = body.split_once(':') else {
            continue;
        };
        if key.starts_with('#')
            || !key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            continue;
        }
        while open.len() > 1 && open.last().unwrap().0 >= indent {
            open.pop();
        }
        if key == "name" {
            open.last_mut().unwrap().2 = value.trim().to_owned();
        }
        let (_, def, entry) = open.last().unwrap().clone();
        covered.insert(format!("{def}.{key}"));
        // Point at the middle of the key, as a mouse would.
        let hover = s
            .hover(&uri, line, indent + key.len() / 2)
            .unwrap_or_default();
        let got = hover_description(&hover);
        checked += 1;
        if got != description(def, key) {
            gaps.insert(format!("{def}.{key}@{entry}"), got);
        }
        let prop = &schema()["definitions"][def]["properties"][key];
        if let Some(child) = mapping_of(prop)
            && value.trim().is_empty()
        {
            // Its keys are on the following, deeper lines; the next line at `indent` or
            // less closes it.
            open.push((indent + 1, child, String::new()));
        }
    }
    eprintln!("hovered {checked} keys");
    let missing: Vec<String> = every_key().difference(&covered).cloned().collect();
    assert!(
        missing.is_empty(),
        "EVERY_KEY lacks {missing:?}: add each on its own line"
    );

    let mut problems = Vec::new();
    for (at, shown) in &gaps {
        let known = HOVER_GAPS.iter().find(|(k, _)| is_gap(k, at));
        match known {
            Some((_, text)) if shown.contains(text) => {}
            _ => {
                let (key, _) = at.split_once('@').unwrap();
                let (def, key) = key.split_once('.').unwrap();
                problems.push(format!(
                    "{at}: hover shows {shown:?}, not its description {:?}",
                    description(def, key)
                ));
            }
        }
    }
    for (k, _) in HOVER_GAPS {
        if !gaps.keys().any(|at| is_gap(k, at)) {
            problems.push(format!(
                "{k}: hover now shows its own description; remove it from HOVER_GAPS"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
