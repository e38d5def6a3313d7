#!/usr/bin/python3
"""Checks docker/ and deploy/ against the code they deploy.

    /usr/bin/python3 tests/contract/deploy_check.py PATH/TO/pithd

1. yamllint --strict over the repository (the root .yamllint); a missing
   yamllint is a failure, never a skip.
2. Starts the given pithd on 127.0.0.1 port 0 and reads /metrics: the exported
   names (histograms as _bucket, _sum and _count), their labels and the label
   values present at start; they must agree with server/pithd/metric_names.hpp.
3. Every metric named in deploy/prometheus/*.yaml and in the Grafana dashboard
   must be one pithd exports (`up` is Prometheus's own), with labels it has
   and, where pithd exports every value at start, values it has.
4. Kubernetes: probes on /healthz and /readyz, ports, selectors, security
   context, grace period against the drain settings, the ConfigMap's config
   accepted by pithd --check-config.
5. Dockerfile: runtime stage without -dev packages or compilers, with a
   non-root USER, a HEALTHCHECK, an exec-form ENTRYPOINT and a package for
   every shared library pithd links; compose file; the Scrapy scraper's image
   and settings; systemd unit. The image's and compose's health checks run
   against the live pithd, and pithd must exit 0 on SIGTERM.

Traffic goes to loopback only. Prints each check; exits 1 if any failed.
Needs Debian's python3-yaml and yamllint; bash for the live health checks.
"""

import fnmatch
import http.client
import json
import math
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import warc_records  # noqa: E402

try:
    import yaml
except ImportError:  # reported as a failure in main()
    yaml = None

# ---------------------------------------------------------------------------
# Reporting

results = {"ok": 0, "fail": 0, "skip": 0}


def ok(what):
    results["ok"] += 1
    print(f"ok    {what}")


def fail(what, detail=""):
    results["fail"] += 1
    print(f"FAIL  {what}" + (f": {detail}" if detail else ""))


def skip(what, why):
    results["skip"] += 1
    print(f"skip  {what}: {why}")


def check(cond, what, detail=""):
    if cond:
        ok(what)
    else:
        fail(what, detail)
    return cond


def rel(path):
    return str(Path(path).relative_to(REPO))


def clean_env(extra=None):
    """The caller's environment without PITH_* (they would change pithd's settings)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PITH_")}
    env.update(extra or {})
    return env


def load_yaml_docs(path):
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


# ---------------------------------------------------------------------------
# 1. yamllint


def check_yamllint():
    config = REPO / ".yamllint"
    if not check(config.is_file(), "yamllint config .yamllint exists"):
        return
    base = [sys.executable, "-m", "yamllint", "-c", str(config)]
    try:
        listed = subprocess.run(base + ["--list-files", "."], cwd=REPO, capture_output=True, text=True,
                                timeout=120)
    except subprocess.TimeoutExpired:
        fail("yamllint --list-files", "timed out")
        return
    if listed.returncode != 0:
        fail("yamllint runs", (listed.stderr or listed.stdout).strip()
             + " (install Debian's yamllint: apt-get install yamllint)")
        return
    files = sorted(line.strip().removeprefix("./") for line in listed.stdout.splitlines() if line.strip())
    expected = [rel(p) for p in sorted(REPO.glob("deploy/**/*.yaml")) + sorted(REPO.glob("docker/*.yml"))]
    missing = [p for p in expected if p not in files]
    check(not missing, f"yamllint covers the deploy and docker YAML files ({len(files)} files)",
          f"not linted: {missing}")
    run = subprocess.run(base + ["--strict", "--format", "parsable", "."], cwd=REPO, capture_output=True,
                         text=True, timeout=300)
    check(run.returncode == 0, "yamllint --strict passes on " + ", ".join(files),
          "\n      " + "\n      ".join(run.stdout.strip().splitlines() + run.stderr.strip().splitlines()))


# ---------------------------------------------------------------------------
# 2. pithd: run it, read what it exports


class Pithd:
    """pithd on 127.0.0.1 port 0; the port comes from its 'listening address=' log line."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary, "--listen", "127.0.0.1:0", "--workers", "1", "--log-format", "text"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=clean_env())
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()
        self.port = None
        while self.port is None:
            try:
                line = self.lines.get(timeout=15)
            except queue.Empty:
                break
            if line is None:
                break
            m = re.search(r"listening address=127\.0\.0\.1:(\d+)", line)
            if m:
                self.port = int(m.group(1))
        if self.port is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise RuntimeError("pithd did not log 'listening address=127.0.0.1:PORT' within 15 s:\n"
                               + "".join(self.log[-20:]))

    def _read(self):
        for line in self.proc.stderr:
            self.log.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def get(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            return resp.status, resp.read().decode("utf-8")
        finally:
            conn.close()

    def stop(self):
        """SIGTERM, then the exit status (None if it had to be killed)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            return None


SAMPLE_RE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+\S+")
LABEL_RE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:\\.|[^"\\])*)"')


def parse_exposition(text):
    """Families {name: type} from # TYPE lines, samples [(name, {label: value})]."""
    families, samples = {}, []
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(None, 3)
            families[name] = kind.strip()
        elif line and not line.startswith("#"):
            m = SAMPLE_RE.match(line)
            if m:
                samples.append((m.group(1), dict(LABEL_RE.findall(m.group(2) or ""))))
    return families, samples


def declared_metrics():
    """server/pithd/metric_names.hpp: {name: (type, [labels])}."""
    text = (REPO / "server" / "pithd" / "metric_names.hpp").read_text(encoding="utf-8")
    found = re.findall(r'\{\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)"\s*,\s*"(counter|gauge|histogram)"\s*,\s*"([a-z_,]*)"',
                       text)
    return {name: (kind, [label for label in labels.split(",") if label]) for name, kind, labels in found}


def family_of(name, families):
    """The family a series name belongs to (histograms add _bucket, _sum, _count), or None."""
    if name in families:
        return name
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix) and name[:-len(suffix)] in families:
            return name[:-len(suffix)]
    return None


class Exported:
    """What pithd exports: series names, and per series name its labels and known values."""

    def __init__(self, families, samples, declared, http_codes):
        self.names = {}   # series name -> family name
        self.labels = {}  # series name -> set of label names
        self.values = {}  # (series name, label) -> set of values seen at start
        for family, kind in families.items():
            series = [family + s for s in ("_bucket", "_sum", "_count")] if kind == "histogram" else [family]
            for name in series:
                self.names[name] = family
                self.labels[name] = set(declared.get(family, ("", []))[1])
            if kind == "histogram":
                self.labels[family + "_bucket"].add("le")
        for name, labels in samples:
            for label, value in labels.items():
                self.labels.setdefault(name, set()).add(label)
                self.values.setdefault((name, label), set()).add(value)
        # No request has been answered when the rules are checked, so the status
        # codes pithd can answer come from --print-error-codes, plus 200.
        for name in list(self.names):
            if "code" in self.labels.get(name, ()):
                self.values[(name, "code")] = set(http_codes)


def check_exports(pithd, binary):
    status, text = pithd.get("/metrics")
    if not check(status == 200, "GET /metrics answers 200", f"got {status}"):
        return None
    families, samples = parse_exposition(text)
    declared = declared_metrics()
    check(len(declared) >= 10, f"server/pithd/metric_names.hpp declares {len(declared)} metrics")
    missing = sorted(set(declared) - set(families))
    extra = sorted(set(families) - set(declared))
    check(not missing and not extra, f"/metrics exports exactly the {len(declared)} families of metric_names.hpp",
          f"declared, not exported: {missing}; exported, not declared: {extra}")
    wrong_type = sorted(n for n in families if n in declared and declared[n][0] != families[n])
    check(not wrong_type, "exported metric types match metric_names.hpp", f"differ: {wrong_type}")
    for family in ("pithd_fetches_total", "pithd_extractions_total", "pithd_fetch_duration_seconds_count",
                   "pithd_extraction_duration_seconds_count"):
        check(any(name == family for name, _ in samples), f"{family} has samples at start (zero counts)")
    undeclared_labels = sorted({f"{name}{{{label}}}" for name, labels in samples for label in labels
                                if label != "le" and family_of(name, declared) is not None
                                and label not in declared[family_of(name, declared)][1]})
    check(not undeclared_labels, "exported label names are the ones metric_names.hpp declares",
          f"undeclared: {undeclared_labels}")
    codes = subprocess.run([binary, "--print-error-codes"], capture_output=True, text=True, timeout=30,
                           env=clean_env())
    http_codes = {"200"} | {str(v) for v in json.loads(codes.stdout).values()}
    exported = Exported(families, samples, declared, http_codes)
    print(f"      pithd exports {len(exported.names)} series names from {len(families)} families")
    return exported


# ---------------------------------------------------------------------------
# 3. Metric names in PromQL

# PromQL's functions and aggregation operators: an identifier followed by "(".
PROMQL_FUNCTIONS = {
    "abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh", "avg_over_time",
    "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh", "count_over_time", "day_of_month",
    "day_of_week", "day_of_year", "days_in_month", "deg", "delta", "deriv", "double_exponential_smoothing",
    "exp", "floor", "histogram_avg", "histogram_count", "histogram_fraction", "histogram_quantile",
    "histogram_stddev", "histogram_stdvar", "histogram_sum", "holt_winters", "hour", "idelta", "increase",
    "irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2", "mad_over_time",
    "max_over_time", "min_over_time", "minute", "month", "pi", "predict_linear", "present_over_time",
    "quantile_over_time", "rad", "rate", "resets", "round", "scalar", "sgn", "sin", "sinh", "sort",
    "sort_by_label", "sort_by_label_desc", "sort_desc", "sqrt", "stddev_over_time", "stdvar_over_time",
    "sum_over_time", "tan", "tanh", "time", "timestamp", "vector", "year", "start", "end",
}
PROMQL_AGGREGATIONS = {"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values",
                       "bottomk", "topk", "quantile", "limitk", "limit_ratio"}
# Followed by a parenthesised list of label names (group_left/right may have none).
PROMQL_LABEL_LISTS = {"by", "without", "on", "ignoring", "group_left", "group_right"}
PROMQL_KEYWORDS = {"and", "or", "unless", "bool", "offset", "atan2", "inf", "nan"}
# Labels Prometheus attaches to every scraped series; `up` is its own metric.
TARGET_LABELS = {"job", "instance"}
PROMETHEUS_OWN = {"up"}

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`[^`]*`)
  | (?P<dur>(?:\d+(?:ms|[smhdwy]))+)(?![a-zA-Z0-9_])
  | (?P<num>0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[a-zA-Z_:][a-zA-Z0-9_:]*)
  | (?P<op>=~|!~|!=|==|>=|<=|[-+*/%^<>=(){}\[\],:@])
""", re.VERBOSE)

DURATION_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}


def duration_seconds(text):
    return sum(int(n) * DURATION_UNITS[u] for n, u in re.findall(r"(\d+)(ms|[smhdwy])", text))


class PromQL:
    """A loose PromQL reader: metric names with their matchers, grouping labels, range durations."""

    def __init__(self, expr):
        self.errors = []
        self.selectors = []   # (metric name, [(label, op, value)])
        self.grouping = set()
        self.ranges = []      # seconds, for each [range] or [range:step]
        # Grafana's interval variables only stand in range brackets.
        text = re.sub(r"\$__(?:rate_interval|interval|range)\b", "5m", expr)
        tokens = []
        pos = 0
        while pos < len(text):
            m = TOKEN_RE.match(text, pos)
            if not m:
                self.errors.append(f"cannot read {text[pos:pos + 20]!r}")
                return
            if m.lastgroup != "ws":
                tokens.append((m.lastgroup, m.group()))
            pos = m.end()
        self._walk(tokens)

    def _walk(self, tokens):
        i = 0
        n = len(tokens)
        while i < n:
            kind, value = tokens[i]
            following = tokens[i + 1][1] if i + 1 < n else None
            if kind == "ident":
                low = value.lower()
                if low in PROMQL_LABEL_LISTS:
                    if following == "(":
                        i += 2
                        while i < n and tokens[i][1] != ")":
                            if tokens[i][0] == "ident":
                                self.grouping.add(tokens[i][1])
                            elif tokens[i][1] != ",":
                                self.errors.append(f"unexpected {tokens[i][1]!r} in {value}(...)")
                            i += 1
                    i += 1
                    continue
                if low in PROMQL_KEYWORDS or value in PROMQL_AGGREGATIONS:
                    i += 1
                    continue
                if following == "(":
                    if value not in PROMQL_FUNCTIONS:
                        self.errors.append(f"unknown function {value}()")
                    i += 1
                    continue
                matchers = []
                i += 1
                if following == "{":
                    matchers, i = self._matchers(tokens, i + 1)
                self.selectors.append((value, matchers))
                continue
            if value == "{":
                matchers, i = self._matchers(tokens, i + 1)
                self.errors.append(f"selector without a metric name: {matchers}")
                continue
            if value == "[":
                j = i + 1
                while j < n and tokens[j][1] != "]":
                    j += 1
                inside = tokens[i + 1:j]
                if inside and inside[0][0] in ("dur", "num"):
                    self.ranges.append(duration_seconds(inside[0][1]) if inside[0][0] == "dur"
                                       else float(inside[0][1]))
                else:
                    self.errors.append(f"unreadable range [{' '.join(v for _, v in inside)}]")
                i = j + 1
                continue
            i += 1

    def _matchers(self, tokens, i):
        matchers = []
        n = len(tokens)
        while i < n and tokens[i][1] != "}":
            if tokens[i][1] == ",":
                i += 1
                continue
            if (i + 2 < n and tokens[i][0] == "ident" and tokens[i + 1][1] in ("=", "!=", "=~", "!~")
                    and tokens[i + 2][0] == "str"):
                raw = tokens[i + 2][1]
                if raw[0] == '"':
                    try:
                        val = json.loads(raw)  # PromQL's "..." escapes are Go's, close enough to JSON's
                    except ValueError:
                        self.errors.append(f"unreadable string {raw}")
                        val = raw[1:-1]
                else:
                    val = raw[1:-1].replace("\\'", "'")
                matchers.append((tokens[i][1], tokens[i + 1][1], val))
                i += 3
            else:
                self.errors.append(f"unreadable label matcher at {tokens[i][1]!r}")
                i += 1
        return matchers, i + 1


def check_expression(where, expr, exported, min_range_seconds=0):
    """Checks one PromQL expression; returns the metric names it uses."""
    q = PromQL(expr)
    problems = list(q.errors)
    names = [name for name, _ in q.selectors]
    if not names:
        problems.append("names no metric (the parser found none)")
    known_labels = set(TARGET_LABELS)
    for name, matchers in q.selectors:
        if name in PROMETHEUS_OWN:
            continue
        if name not in exported.names:
            problems.append(f"{name} is not exported by pithd")
            continue
        labels = exported.labels[name] | TARGET_LABELS
        known_labels |= labels
        for label, op, value in matchers:
            if label not in labels:
                problems.append(f"{name} has no label {label!r} (it has {sorted(labels - TARGET_LABELS)})")
                continue
            values = exported.values.get((name, label))
            if not values or "$" in value:
                continue
            if op == "=" and value not in values:
                problems.append(f'{name}{{{label}="{value}"}}: pithd exports {label} values {sorted(values)}')
            if op == "=~" and not any(re.fullmatch(value, v) for v in values):
                problems.append(f'{name}{{{label}=~"{value}"}} matches none of {sorted(values)}')
    unknown_grouping = sorted(q.grouping - known_labels)
    if unknown_grouping:
        problems.append(f"groups by labels no metric here has: {unknown_grouping}")
    short = [r for r in q.ranges if r < min_range_seconds]
    if short:
        problems.append(f"range windows {short} s shorter than {min_range_seconds} s")
    check(not problems, f"{where}: {', '.join(sorted(set(names)))}", "; ".join(problems))
    return names


def check_alert_rules(exported):
    files = sorted((REPO / "deploy" / "prometheus").glob("*.yaml"))
    if not check(bool(files), "deploy/prometheus has rule files"):
        return
    for path in files:
        docs = load_yaml_docs(path)
        groups = docs[0].get("groups") if docs and isinstance(docs[0], dict) else None
        if not check(isinstance(groups, list) and groups, f"{rel(path)} has rule groups"):
            continue
        count = 0
        for group in groups:
            for rule in group.get("rules", []):
                count += 1
                name = rule.get("alert") or rule.get("record") or f"rule {count}"
                where = f"{rel(path)} {group.get('name')}/{name}"
                if "alert" in rule:
                    missing = [k for k in ("expr", "for") if k not in rule]
                    missing += [f"labels.{k}" for k in ("severity",) if k not in rule.get("labels", {})]
                    missing += [f"annotations.{k}" for k in ("summary", "description")
                                if k not in rule.get("annotations", {})]
                    check(not missing, f"{where} has expr, for, severity, summary, description",
                          f"missing {missing}")
                # Rule windows of at least 1m: several scrapes per rate().
                check_expression(where, str(rule.get("expr", "")), exported, min_range_seconds=60)
        check(count > 0, f"{rel(path)}: {count} rules")


def dashboard_panels(panels):
    for panel in panels:
        yield panel
        yield from dashboard_panels(panel.get("panels", []))


def check_dashboard(exported):
    files = sorted((REPO / "deploy" / "grafana").glob("*.json"))
    if not check(bool(files), "deploy/grafana has a dashboard"):
        return
    for path in files:
        try:
            dash = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            fail(f"{rel(path)} is JSON", str(e))
            continue
        check(isinstance(dash.get("schemaVersion"), int) and dash["schemaVersion"] >= 36,
              f"{rel(path)} schemaVersion {dash.get('schemaVersion')}")
        check(bool(dash.get("uid")) and bool(dash.get("title")), f"{rel(path)} has a uid and a title")
        variables = {v.get("name"): v for v in dash.get("templating", {}).get("list", [])}
        inputs = {i.get("name") for i in dash.get("__inputs", [])}
        panels = list(dashboard_panels(dash.get("panels", [])))
        ids = [p.get("id") for p in panels]
        check(len(ids) == len(set(ids)) and None not in ids, f"{rel(path)}: {len(panels)} panels, unique ids")
        used = set()
        for panel in panels:
            if panel.get("type") == "row":
                continue
            title = panel.get("title", "?")
            targets = panel.get("targets", [])
            if not check(bool(targets), f"panel {title!r} has queries"):
                continue
            for target in targets:
                for ds in (panel.get("datasource"), target.get("datasource")):
                    uid = (ds or {}).get("uid", "") if isinstance(ds, dict) else str(ds or "")
                    m = re.fullmatch(r"\$\{?(\w+)\}?", uid)
                    if not m or (m.group(1) not in variables and m.group(1) not in inputs):
                        fail(f"panel {title!r} datasource", f"{uid!r} is not a dashboard variable or input")
                        break
                used.update(check_expression(f"panel {title!r} {target.get('refId')}", target.get("expr", ""),
                                             exported))
        for name, var in variables.items():
            if var.get("type") != "query":
                continue
            query = var.get("query")
            query = query.get("query", "") if isinstance(query, dict) else str(query or "")
            m = re.fullmatch(r"\s*label_values\(\s*(?:(.*?)\s*,\s*)?([a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*", query)
            if not check(bool(m), f"variable ${name} is label_values(...)", query):
                continue
            if m.group(1):
                check_expression(f"variable ${name}", m.group(1), exported)
            check(m.group(2) in TARGET_LABELS or any(m.group(2) in labels for labels in exported.labels.values()),
                  f"variable ${name} reads label {m.group(2)!r}")
        print(f"      the dashboard uses {len(set(used))} metric names")


# ---------------------------------------------------------------------------
# 4. Kubernetes


def selector_matches(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def effective_config(binary, config_file, env=None):
    """pithd --print-config with this file and these PITH_* variables, as a dict."""
    run = subprocess.run([binary, "--print-config", "--config", str(config_file)], capture_output=True,
                         text=True, timeout=30, env=clean_env(env))
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip() or run.stdout.strip())
    return tomllib.loads(run.stdout)


def drain_seconds(config):
    return (config["server"]["drain_timeout_ms"] + config["server"]["shutdown_delay_ms"]) / 1000


def listen_port(config):
    return int(config["server"]["listen"].rsplit(":", 1)[1])


def cpu_cores(quantity):
    text = str(quantity)
    return float(text[:-1]) / 1000 if text.endswith("m") else float(text)


def check_kubernetes(binary):
    folder = REPO / "deploy" / "kubernetes"
    files = sorted(folder.glob("*.yaml"))
    objects = {}
    for path in files:
        for doc in load_yaml_docs(path):
            objects.setdefault(doc.get("kind"), []).append((path, doc))
    kustomization = folder / "kustomization.yaml"
    if kustomization.is_file():
        listed = load_yaml_docs(kustomization)[0].get("resources", [])
        others = sorted(p.name for p in files if p.name != kustomization.name)
        check(sorted(listed) == others, "kustomization.yaml lists every manifest", f"{listed} vs {others}")
    kubectl = shutil.which("kubectl")
    if kubectl:
        run = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=60)
        check(run.returncode == 0, "kubectl kustomize deploy/kubernetes renders", run.stderr.strip())
    else:
        skip("kubectl kustomize deploy/kubernetes", "kubectl not installed")

    for kind in ("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
        check(len(objects.get(kind, [])) == 1, f"deploy/kubernetes has one {kind}")
    if any(len(objects.get(k, [])) != 1 for k in ("Deployment", "Service", "ConfigMap")):
        return
    deployment = objects["Deployment"][0][1]
    pod = deployment["spec"]["template"]
    pod_labels = pod["metadata"].get("labels", {})
    spec = pod["spec"]
    containers = spec.get("containers", [])
    container = next((c for c in containers if c.get("name") == "pithd"), containers[0] if containers else {})
    check(selector_matches(deployment["spec"]["selector"].get("matchLabels"), pod_labels),
          "Deployment selector matches its pod labels")

    ports = {p.get("name"): p.get("containerPort") for p in container.get("ports", [])}

    def port_of(ref):
        return ports.get(ref) if isinstance(ref, str) and not ref.isdigit() else int(ref)

    probes = {"livenessProbe": "/healthz", "readinessProbe": "/readyz", "startupProbe": "/healthz"}
    for probe, path in probes.items():
        if probe not in container:
            if probe == "startupProbe":
                continue
            fail(f"Deployment {probe}", "missing")
            continue
        get = container[probe].get("httpGet", {})
        check(get.get("path") == path and port_of(get.get("port")) in ports.values(),
              f"Deployment {probe} is httpGet {path} on the container port",
              f"path {get.get('path')}, port {get.get('port')}")

    service = objects["Service"][0][1]
    check(service["spec"].get("type", "ClusterIP") == "ClusterIP", "Service is ClusterIP")
    check(selector_matches(service["spec"].get("selector"), pod_labels), "Service selector matches the pods")
    for sp in service["spec"].get("ports", []):
        check(sp.get("name") == "http" and port_of(sp.get("targetPort", sp.get("port"))) in ports.values(),
              f"Service port {sp.get('name')}:{sp.get('port')} targets the container port",
              f"targetPort {sp.get('targetPort')} vs container ports {ports}")

    annotations = pod["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/scrape") == "true" and annotations.get("prometheus.io/path") == "/metrics"
          and str(annotations.get("prometheus.io/port")) in {str(p) for p in ports.values()},
          "pod template has Prometheus scrape annotations for /metrics on the container port", str(annotations))

    pod_sc = spec.get("securityContext", {})
    sc = {**pod_sc, **container.get("securityContext", {})}
    check(sc.get("runAsNonRoot") is True and sc.get("runAsUser") == 10001,
          "runs as non-root user 10001 (the image's USER)", str(sc))
    check(sc.get("readOnlyRootFilesystem") is True and sc.get("allowPrivilegeEscalation") is False
          and "ALL" in sc.get("capabilities", {}).get("drop", [])
          and sc.get("seccompProfile", {}).get("type") == "RuntimeDefault",
          "read-only root, no privilege escalation, capabilities dropped, RuntimeDefault seccomp", str(sc))
    resources = container.get("resources", {})
    check(all(k in resources.get(part, {}) for part in ("requests", "limits") for k in ("cpu", "memory")),
          "container has cpu and memory requests and limits", str(resources))

    # The config: ConfigMap mounted where PITH_CONFIG points, accepted by pithd.
    configmap = objects["ConfigMap"][0][1]
    env = {e["name"]: e for e in container.get("env", [])}
    config_path = env.get("PITH_CONFIG", {}).get("value", "/etc/pith/pith.toml")
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    mounted = None
    for mount in container.get("volumeMounts", []):
        volume = volumes.get(mount["name"], {})
        if "configMap" in volume and config_path.startswith(mount["mountPath"].rstrip("/") + "/"):
            mounted = (volume["configMap"]["name"], config_path[len(mount["mountPath"].rstrip("/")) + 1:],
                       mount.get("readOnly"))
    check(mounted is not None and mounted[0] == configmap["metadata"]["name"]
          and mounted[1] in configmap.get("data", {}) and mounted[2] is True,
          f"ConfigMap {configmap['metadata']['name']} is mounted read-only at {config_path}", str(mounted))
    secret_ref = env.get("PITH_AUTH_TOKEN", {}).get("valueFrom", {}).get("secretKeyRef")
    check(bool(secret_ref), "PITH_AUTH_TOKEN comes from a Secret", str(env.get("PITH_AUTH_TOKEN")))
    if mounted is None or mounted[1] not in configmap.get("data", {}):
        return
    pith_env = {}
    for name, e in env.items():
        if name == "PITH_CONFIG" or not name.startswith("PITH_"):
            continue
        if "value" in e:
            pith_env[name] = str(e["value"])
        elif "resourceFieldRef" in e.get("valueFrom", {}):
            ref = e["valueFrom"]["resourceFieldRef"]
            part, res = ref["resource"].split(".")
            quantity = resources.get(part, {}).get(res)
            if res == "cpu" and quantity is not None:
                pith_env[name] = str(math.ceil(cpu_cores(quantity) / cpu_cores(ref.get("divisor", "1"))))
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(configmap["data"][mounted[1]])
        toml_file = f.name
    try:
        run = subprocess.run([binary, "--check-config", "--config", toml_file], capture_output=True, text=True,
                             timeout=30, env=clean_env(pith_env))
        if not check(run.returncode == 0, f"pithd --check-config accepts the ConfigMap's config with {pith_env}",
                     (run.stderr + run.stdout).strip()):
            return
        config = effective_config(binary, toml_file, pith_env)
    finally:
        os.unlink(toml_file)
    check(listen_port(config) in ports.values(), f"the config listens on the container port {sorted(ports.values())}",
          config["server"]["listen"])
    grace = spec.get("terminationGracePeriodSeconds", 30)
    check(grace > drain_seconds(config),
          f"terminationGracePeriodSeconds {grace} > drain_timeout_ms + shutdown_delay_ms ({drain_seconds(config)} s)")

    for path, hpa in objects.get("HorizontalPodAutoscaler", []):
        target = hpa["spec"]["scaleTargetRef"]
        metrics = hpa["spec"].get("metrics", [])
        check(hpa["apiVersion"] == "autoscaling/v2" and target.get("kind") == "Deployment"
              and target.get("name") == deployment["metadata"]["name"]
              and any(m.get("resource", {}).get("name") == "cpu"
                      and m["resource"].get("target", {}).get("type") == "Utilization" for m in metrics),
              "HorizontalPodAutoscaler (autoscaling/v2) scales the Deployment on CPU utilisation")
    for path, pdb in objects.get("PodDisruptionBudget", []):
        check(pdb["apiVersion"] == "policy/v1"
              and selector_matches(pdb["spec"].get("selector", {}).get("matchLabels"), pod_labels),
              "PodDisruptionBudget (policy/v1) selects the pods")


def warc_of(path, uris):
    """A small WARC of one HTML response per URI, for running the Job's script."""
    page = b"<html><head><title>T</title></head><body><article><p>" + b"Tides rise twice a day. " * 20 + \
        b"</p></article></body></html>"
    with open(path, "wb") as out:
        for i, uri in enumerate(uris):
            out.write(warc_records.response(uri, i, page))


def check_warc_job(binary):
    """deploy/kubernetes/warc-job: an Indexed Job running pith warc over a file
    list, shaped as the Deployment is (image, user, hardening), and its script
    run here, pod by pod, over small WARC files."""
    folder = REPO / "deploy" / "kubernetes" / "warc-job"
    files = sorted(folder.glob("*.yaml"))
    objects = {}
    for path in files:
        for doc in load_yaml_docs(path):
            objects.setdefault(doc.get("kind"), []).append(doc)
    listed = load_yaml_docs(folder / "kustomization.yaml")[0].get("resources", [])
    check(sorted(listed) == sorted(p.name for p in files if p.name != "kustomization.yaml"),
          "warc-job/kustomization.yaml lists every manifest", str(listed))
    jobs, maps = objects.get("Job", []), objects.get("ConfigMap", [])
    if not check(len(jobs) == 1 and len(maps) == 1, "warc-job has one Job and one ConfigMap"):
        return
    job, files_map = jobs[0], maps[0]
    spec = job["spec"]
    pod = spec["template"]["spec"]
    container = pod["containers"][0]
    env = {e["name"]: e for e in container.get("env", [])}
    completions = spec.get("completions", 1)
    check(job["apiVersion"] == "batch/v1" and spec.get("completionMode") == "Indexed"
          and 1 <= spec.get("parallelism", 1) <= completions and pod.get("restartPolicy") in ("Never", "OnFailure"),
          "the Job is an Indexed batch/v1 Job with parallelism <= completions", str(spec.get("completionMode")))
    check(str(env.get("PITH_WARC_SHARDS", {}).get("value")) == str(completions),
          f"PITH_WARC_SHARDS is the Job's completions ({completions})", str(env.get("PITH_WARC_SHARDS")))
    deployments = [d for p in sorted((REPO / "deploy" / "kubernetes").glob("*.yaml"))
                   for d in load_yaml_docs(p) if d.get("kind") == "Deployment"]
    image = deployments[0]["spec"]["template"]["spec"]["containers"][0]["image"] if deployments else None
    check(container.get("image") == image, f"the Job runs the Deployment's image ({image})", container.get("image"))
    script = "\n".join(container.get("args", []))
    check(container.get("command") == ["/bin/bash", "-c"] and "pith warc" in script,
          "the container runs pith warc from a bash script")
    sc = {**pod.get("securityContext", {}), **container.get("securityContext", {})}
    check(sc.get("runAsNonRoot") is True and sc.get("runAsUser") == 10001 and sc.get("readOnlyRootFilesystem") is True
          and sc.get("allowPrivilegeEscalation") is False and "ALL" in sc.get("capabilities", {}).get("drop", [])
          and sc.get("seccompProfile", {}).get("type") == "RuntimeDefault",
          "the Job's pods run as user 10001, read-only, unprivileged, RuntimeDefault seccomp", str(sc))
    resources = container.get("resources", {})
    check(all(k in resources.get(part, {}) for part in ("requests", "limits") for k in ("cpu", "memory")),
          "the Job's container has cpu and memory requests and limits", str(resources))
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["mountPath"]: m for m in container.get("volumeMounts", [])}

    def volume_at(path):
        mount = mounts.get(path, {})
        return mount, volumes.get(mount.get("name"), {})

    list_path = env.get("PITH_WARC_LIST", {}).get("value", "")
    mount, volume = volume_at(str(Path(list_path).parent))
    check(volume.get("configMap", {}).get("name") == files_map["metadata"]["name"]
          and Path(list_path).name in files_map.get("data", {}) and mount.get("readOnly") is True,
          f"the file list {list_path} is the ConfigMap's, mounted read-only")
    mount, volume = volume_at(env.get("PITH_WARC_INPUT", {}).get("value", ""))
    check("persistentVolumeClaim" in volume and mount.get("readOnly") is True,
          "the WARC files come from a volume mounted read-only")
    mount, volume = volume_at(env.get("PITH_WARC_OUTPUT", {}).get("value", ""))
    check("persistentVolumeClaim" in volume and not mount.get("readOnly"), "the parts go to a writable volume")

    pith = Path(binary).with_name("pith")
    if not pith.is_file():
        skip("the Job's script over small WARC files", f"no pith binary beside {binary}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for sub in ("bin", "warc", "output"):
            (tmp / sub).mkdir()
        (tmp / "bin" / "pith").symlink_to(pith.resolve())
        names = [f"crawl-{i}.warc" for i in range(completions + 2)]
        for i, name in enumerate(names):
            warc_of(tmp / "warc" / name, [f"http://job.test/{i}/{j}" for j in range(i + 1)])
        (tmp / "files.txt").write_text("\n".join(names) + "\n\n", encoding="utf-8")
        failed = []
        for index in range(completions):
            run_env = {"PATH": f"{tmp / 'bin'}:/usr/bin:/bin", "JOB_COMPLETION_INDEX": str(index),
                       "PITH_WARC_SHARDS": str(completions), "PITH_WARC_JOBS": "1",
                       "PITH_WARC_LIST": str(tmp / "files.txt"), "PITH_WARC_INPUT": str(tmp / "warc"),
                       "PITH_WARC_OUTPUT": str(tmp / "output")}
            done = subprocess.run(["/bin/bash", "-c", script], env=run_env, capture_output=True, text=True, timeout=120)
            if done.returncode != 0:
                failed.append(f"pod {index}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        uris = []
        for part in sorted((tmp / "output").iterdir()):
            uris += [json.loads(line)["warc_target_uri"] for line in part.read_text(encoding="utf-8").splitlines()]
        expected = [f"http://job.test/{i}/{j}" for i in range(len(names)) for j in range(i + 1)]
        parts = sorted(p.name for p in (tmp / "output").iterdir())
        check(not failed and sorted(uris) == sorted(expected) and len(parts) == completions
              and all(not p.endswith(".partial") for p in parts),
              f"the Job's {completions} pods, run here, extract every record of {len(names)} WARC files once, "
              f"one part each", "; ".join(failed) or f"{len(uris)} of {len(expected)} records, parts {parts}")


# ---------------------------------------------------------------------------
# 5. Dockerfile, compose, systemd


def dockerfile_stages(path):
    """[(from args, [(INSTRUCTION, rest)])] with continuation lines joined."""
    stages, current, pending = [], None, ""
    for line in path.read_text(encoding="utf-8").splitlines():
        # Comment and blank lines are dropped, also inside a continued instruction.
        if line.lstrip().startswith("#") or not line.strip():
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        keyword, _, rest = full.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            current = (rest.split(), [])
            stages.append(current)
        elif current is not None:
            current[1].append((keyword, rest.strip()))
    return stages


def apt_packages(run_text):
    packages = []
    for segment in re.split(r"&&|;|\|\|", run_text):
        words = shlex.split(segment)
        if "apt-get" in words and "install" in words:
            packages += [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    return packages


def makefile_packages():
    text = (REPO / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    m = re.search(r"^DEB_PACKAGES\s*:?=(.*)$", text, re.MULTILINE)
    return m.group(1).split() if m else []


def linked_packages(binary):
    """Debian packages owning the shared libraries the binary links (ldd, then dpkg -S)."""
    run = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30)
    packages, unknown = {}, []
    for path in re.findall(r"=>\s*(/\S+)", run.stdout):
        candidates = {path, os.path.realpath(path)}
        candidates |= {p.replace("/usr/lib/", "/lib/", 1) if p.startswith("/usr/lib/")
                       else p.replace("/lib/", "/usr/lib/", 1) for p in list(candidates)}
        owner = None
        for candidate in sorted(candidates):
            query = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, timeout=30)
            if query.returncode == 0:
                owner = query.stdout.split(":")[0].strip()
                break
        if owner:
            packages[os.path.basename(path)] = owner
        else:
            unknown.append(path)
    return packages, unknown


def healthcheck_command(stage_instructions):
    for keyword, rest in stage_instructions:
        if keyword == "HEALTHCHECK":
            m = re.search(r"\bCMD\s+(\[.*\])\s*$", rest)
            return json.loads(m.group(1)) if m else rest
    return None


def check_dockerfile(binary, example_config):
    path = REPO / "docker" / "Dockerfile"
    if not check(path.is_file(), "docker/Dockerfile exists"):
        return None
    stages = dockerfile_stages(path)
    if not check(len(stages) >= 2, f"Dockerfile is multi-stage ({len(stages)} stages)"):
        return None
    names = {args[2] for args, _ in stages if len(args) >= 3 and args[1].upper() == "AS"}
    bases = [args[0] for args, _ in stages]
    check(all(b == "debian:12-slim" or b in names for b in bases), f"stages build on debian:12-slim ({bases})")
    build, runtime = stages[0][1], stages[-1][1]

    build_packages = [p for k, r in build if k == "RUN" for p in apt_packages(r)]
    # Packages only the tests need (GoogleTest, the sanitizer and fuzzer runtime)
    # stay out of the image.
    test_only = ("libgtest-dev", "libclang-rt-14-dev")
    needed = [p for p in makefile_packages()
              if (p.endswith("-dev") and p not in test_only) or p in ("build-essential", "cmake", "ninja-build",
                                                                       "pkg-config")]
    missing = [p for p in needed if p not in build_packages]
    check(not missing, "build stage installs the Makefile's toolchain and -dev packages", f"missing {missing}")
    build_runs = " ".join(r for k, r in build if k == "RUN")
    check(all(s in build_runs for s in ("-DCMAKE_BUILD_TYPE=Release", "-DPITH_BUILD_TESTS=OFF",
                                        "-DPITH_BUILD_BENCH=OFF", "--target pithd")),
          "build stage configures Release without tests and bench, builds only pithd")

    runtime_packages = [p for k, r in runtime if k == "RUN" for p in apt_packages(r)]
    forbidden = [p for p in runtime_packages
                 if p.endswith("-dev") or p in ("build-essential", "cmake", "ninja-build", "pkg-config", "make",
                                                "binutils", "clang", "ccache")
                 or re.fullmatch(r"(gcc|g\+\+|cpp|clang)(-\d+)?", p)]
    check(not forbidden, f"runtime stage installs no -dev package or compiler ({' '.join(runtime_packages)})",
          f"found {forbidden}")
    check("ca-certificates" in runtime_packages, "runtime stage installs ca-certificates (https fetches)")
    libs, unknown = linked_packages(binary)
    # libc6 and libgcc-s1 are part of every Debian base image.
    uncovered = sorted({f"{lib} ({pkg})" for lib, pkg in libs.items()
                        if pkg not in runtime_packages and pkg not in ("libc6", "libgcc-s1")})
    check(bool(libs) and not uncovered and not unknown,
          f"runtime stage installs the packages of every library pithd links ({len(libs)} libraries)",
          f"not installed: {uncovered}; no package found for {unknown}")

    users = [r for k, r in runtime if k == "USER"]
    user = users[-1].split(":")[0] if users else ""
    check(bool(user) and user not in ("root", "0"), f"runtime stage runs as USER {users[-1] if users else None}")
    check(user == "10001", "USER is numeric 10001, the uid Kubernetes' runAsUser names", user)
    health = healthcheck_command(runtime)
    check(isinstance(health, list) and health, "runtime stage has an exec-form HEALTHCHECK CMD", str(health))
    entrypoints = [r for k, r in runtime if k == "ENTRYPOINT"]
    try:
        entry = json.loads(entrypoints[-1]) if entrypoints else None
    except ValueError:
        entry = None
    check(isinstance(entry, list) and entry[:1] == ["/usr/local/bin/pithd"],
          "ENTRYPOINT is exec form [\"/usr/local/bin/pithd\"] (pithd is PID 1)", str(entrypoints))
    check(("STOPSIGNAL", "SIGTERM") in runtime, "STOPSIGNAL SIGTERM")
    port = listen_port(example_config)
    check(any(k == "EXPOSE" and str(port) in r.split() for k, r in runtime), f"EXPOSE {port} (server.listen)")
    copies = [(k, r) for stage in stages for k, r in stage[1] if k == "COPY" and "--from" not in r]
    sources = [s for _, r in copies for s in shlex.split(r)[:-1] if not s.startswith("--")]
    absent = [s for s in sources if not (REPO / s).exists()]
    check(not absent, f"COPY sources exist from the repository root ({' '.join(sources)})", f"missing {absent}")
    ignore_file = path.with_name(path.name + ".dockerignore")
    if ignore_file.is_file():
        patterns = [line.strip() for line in ignore_file.read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.startswith("#")]
        excluded = [s for s in sources for pattern in patterns
                    if fnmatch.fnmatch(s.rstrip("/"), pattern) or fnmatch.fnmatch(s.rstrip("/"), pattern + "/*")]
        check(not excluded, f"{rel(ignore_file)} excludes no COPY source", f"excluded: {excluded}")
    check(any(k == "COPY" and "config/pith.example.toml" in r and r.split()[-1] == "/etc/pith/pith.toml"
              for k, r in runtime), "the example config is copied to /etc/pith/pith.toml")
    check(isinstance(health, list) and f"/{port}" in " ".join(health),
          f"HEALTHCHECK connects to port {port}")
    return health if isinstance(health, list) else None


def check_compose(binary):
    path = REPO / "docker" / "docker-compose.yml"
    if not check(path.is_file(), "docker/docker-compose.yml exists"):
        return None
    compose = load_yaml_docs(path)[0]
    services = compose.get("services", {})
    pithd = services.get("pithd")
    if not check(isinstance(pithd, dict), "compose has a pithd service"):
        return None
    base = path.parent
    build = pithd.get("build", {})
    check((base / build.get("context", ".") / build.get("dockerfile", "Dockerfile")).resolve()
          == REPO / "docker" / "Dockerfile", "compose builds pithd from docker/Dockerfile with the root as context")
    health = pithd.get("healthcheck", {})
    test = health.get("test", [])
    check(isinstance(test, list) and test[:1] == ["CMD"] and all(k in health for k in ("interval", "timeout",
                                                                                     "retries")),
          "pithd has a CMD healthcheck with interval, timeout, retries")
    env = pithd.get("environment", {})
    env = dict(e.split("=", 1) for e in env) if isinstance(env, list) else dict(env or {})
    config_mount = None
    for volume in pithd.get("volumes", []):
        parts = volume.split(":") if isinstance(volume, str) else []
        if len(parts) == 3 and parts[1] == env.get("PITH_CONFIG", "/etc/pith/pith.toml"):
            config_mount = parts
    check(config_mount is not None and config_mount[2] == "ro" and (base / config_mount[0]).is_file(),
          "pithd's config file is mounted read-only at PITH_CONFIG", str(pithd.get("volumes")))
    for name, service in services.items():
        limits = service.get("deploy", {}).get("resources", {}).get("limits", {})
        check("cpus" in limits and "memory" in limits, f"compose service {name} has cpu and memory limits")
        check(service.get("restart") in ("always", "unless-stopped", "on-failure"),
              f"compose service {name} has a restart policy ({service.get('restart')})")
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                check((base / source).exists(), f"compose service {name} mounts {source}, which exists")
        if name != "pithd":
            depends = service.get("depends_on", {})
            check(isinstance(depends, dict) and depends.get("pithd", {}).get("condition") == "service_healthy",
                  f"compose service {name} waits for pithd to be healthy")
    if config_mount is not None:
        pith_env = {k: str(v) for k, v in env.items()
                    if k.startswith("PITH_") and k != "PITH_CONFIG" and "${" not in str(v)}
        try:
            config = effective_config(binary, base / config_mount[0], pith_env)
        except RuntimeError as e:
            fail("pithd accepts the compose config and environment", str(e))
        else:
            ok(f"pithd accepts the compose config and environment {pith_env}")
            grace = duration_seconds(str(pithd.get("stop_grace_period", "10s")))
            check(grace > drain_seconds(config),
                  f"stop_grace_period {grace} s > drain_timeout_ms + shutdown_delay_ms ({drain_seconds(config)} s)")
    return test[1:] if isinstance(test, list) and test[:1] == ["CMD"] else None


def check_systemd(binary, example_config):
    path = REPO / "deploy" / "systemd" / "pithd.service"
    if not check(path.is_file(), "deploy/systemd/pithd.service exists"):
        return
    settings = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())

    def last(key):
        return settings.get(key, [None])[-1]

    check(last("ExecStart") == "/usr/local/bin/pithd --config /etc/pith/pith.toml",
          "ExecStart=/usr/local/bin/pithd --config /etc/pith/pith.toml", str(last("ExecStart")))
    required = {"ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes", "NoNewPrivileges": "yes",
                "CapabilityBoundingSet": "", "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
                "Restart": "on-failure", "KillSignal": "SIGTERM"}
    wrong = {k: last(k) for k, v in required.items() if last(k) != v}
    check(not wrong, "unit hardening and restart settings: " + ", ".join(f"{k}={v}" for k, v in required.items()),
          f"differ: {wrong}")
    check("@system-service" in settings.get("SystemCallFilter", []), "SystemCallFilter=@system-service")
    check(last("DynamicUser") == "yes" or bool(last("User")), "runs as a dynamic or dedicated user")
    check(bool(last("MemoryMax")) and bool(last("LimitNOFILE")), "MemoryMax and LimitNOFILE are set")
    timeout = last("TimeoutStopSec") or ""
    stop = duration_seconds(timeout) or (float(timeout) if re.fullmatch(r"\d+(\.\d+)?", timeout) else 0)
    check(stop > drain_seconds(example_config),
          f"TimeoutStopSec {stop} s > drain_timeout_ms + shutdown_delay_ms of the example config "
          f"({drain_seconds(example_config)} s)")
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        skip("systemd-analyze verify", "systemd-analyze not installed")
        return
    # Verify a copy whose ExecStart names the binary under test, which exists.
    with tempfile.TemporaryDirectory() as tmp:
        unit = Path(tmp) / "pithd.service"
        unit.write_text(path.read_text(encoding="utf-8").replace("/usr/local/bin/pithd",
                                                                 str(Path(binary).resolve())))
        run = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, cwd=tmp)
    output = (run.stdout + run.stderr).strip()
    check(run.returncode == 0, "systemd-analyze verify accepts the unit" + (f" ({output})" if output else ""),
          output)


# ---------------------------------------------------------------------------
# Live checks against the running pithd


def run_healthcheck(command, port):
    """Runs a bash -c health check with its port 8080 pointed at the test pithd."""
    argv = [a.replace("/127.0.0.1/8080", f"/127.0.0.1/{port}") for a in command]
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=10, env=clean_env()).returncode
    except subprocess.TimeoutExpired:
        return "timeout"


def check_scraper_image():
    """docker/scraper: the Scrapy image compose runs beside pithd (tests/docker/scrapy_test.py
    runs its crawl against a live pithd; tests/docker/image_test.py builds and runs it)."""
    path = REPO / "docker" / "scraper" / "Dockerfile"
    if not check(path.is_file(), "docker/scraper/Dockerfile exists"):
        return
    stages = dockerfile_stages(path)
    check([args[0] for args, _ in stages] == ["debian:12-slim"], "the scraper image builds on debian:12-slim")
    instructions = [item for _, stage in stages for item in stage]
    packages = [p for k, r in instructions if k == "RUN" for p in apt_packages(r)]
    check("python3-scrapy" in packages, "the scraper image installs Debian's python3-scrapy", str(packages))
    users = [r for k, r in instructions if k == "USER"]
    check(bool(users) and users[-1].split(":")[0] not in ("root", "0") and users[-1].split(":")[0].isdigit(),
          f"the scraper runs as a numeric non-root USER ({users[-1] if users else None})")
    entrypoints = [json.loads(r) for k, r in instructions if k == "ENTRYPOINT"]
    check(entrypoints[-1:] == [["python3", "-m", "scrapy", "crawl", "site"]],
          "the scraper's ENTRYPOINT runs the site spider", str(entrypoints))
    sources = [s for k, r in instructions if k == "COPY" for s in shlex.split(r)[:-1]]
    absent = [s for s in sources if not (path.parent / s).exists()]
    check(sources and not absent, f"the scraper's COPY sources exist ({' '.join(sources)})", f"missing {absent}")
    compose = load_yaml_docs(REPO / "docker" / "docker-compose.yml")[0]
    scraper = compose.get("services", {}).get("scraper", {})
    build = scraper.get("build", {})
    check((REPO / "docker" / build.get("context", ".") / build.get("dockerfile", "Dockerfile")).resolve() == path,
          "compose builds the scraper service from docker/scraper/Dockerfile")
    env = scraper.get("environment", {})
    check(env.get("PITHD_URL") == "http://pithd:8080", "the scraper sends pages to http://pithd:8080")
    settings = (REPO / "docker" / "scraper" / "pith_scraper" / "settings.py").read_text(encoding="utf-8")
    check("pith_scraper.pipelines.PithExtractPipeline" in settings and "TELNETCONSOLE_ENABLED = False" in settings,
          "the scraper's settings enable the pith pipeline and turn Scrapy's telnet console off")


# ---------------------------------------------------------------------------


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary = sys.argv[1]
    print(f"deploy_check: repository {REPO}, pithd {binary}")
    if not check(yaml is not None, "python3-yaml is installed", "apt-get install python3-yaml"):
        return 1
    if not check(os.access(binary, os.X_OK), f"{binary} is executable"):
        return 1

    print("-- yamllint")
    check_yamllint()

    try:
        example_config = effective_config(binary, REPO / "config" / "pith.example.toml")
    except RuntimeError as e:
        fail("pithd accepts config/pith.example.toml", str(e))
        return 1
    ok("pithd accepts config/pith.example.toml")

    print("-- Dockerfile")
    image_health = check_dockerfile(binary, example_config)
    print("-- docker-compose.yml")
    compose_health = check_compose(binary)
    check_scraper_image()
    print("-- Kubernetes")
    check_kubernetes(binary)
    check_warc_job(binary)
    print("-- systemd")
    check_systemd(binary, example_config)

    print("-- pithd on loopback")
    try:
        pithd = Pithd(binary)
    except RuntimeError as e:
        fail("pithd starts on 127.0.0.1 port 0", str(e))
        return 1
    ok(f"pithd listens on 127.0.0.1:{pithd.port}")
    port = pithd.port
    try:
        exported = check_exports(pithd, binary)
        for name, command in (("image HEALTHCHECK", image_health), ("compose healthcheck", compose_health)):
            if command:
                rc = run_healthcheck(command, port)
                check(rc == 0, f"the {name} passes against a live pithd", f"exit {rc}")
        if exported is not None:
            print("-- metric names in alert rules")
            check_alert_rules(exported)
            print("-- metric names in the Grafana dashboard")
            check_dashboard(exported)
    finally:
        status = pithd.stop()
    check(status == 0, "pithd exits 0 on SIGTERM", f"exit status {status}")
    for name, command in (("image HEALTHCHECK", image_health), ("compose healthcheck", compose_health)):
        if command:
            rc = run_healthcheck(command, port)
            check(rc not in (0, "timeout"), f"the {name} fails once pithd is gone", f"exit {rc}")

    print(f"deploy_check: {results['ok']} passed, {results['fail']} failed, {results['skip']} skipped")
    return 1 if results["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
