// The config file (secrets redacted) in an editor, checked against the schema as it is typed, the
// issues shown at their lines; saving goes through the gateway's validated atomic write. Below, the
// doctor: what `openclaw doctor --fix` would change, as a diff, and a button that applies it.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { GatewayConnection } from "../api/client.js";
import { RequestError } from "../api/client.js";
import type { PageProps } from "./page.js";
import { useRequest } from "../api/hooks.js";
import type { ConfigIssue, ConfigRaw, DoctorPlan } from "../api/types.js";
import { lineOfPath } from "../config-lines.js";

const VALIDATE_DELAY_MS = 300;

function issuesOf(details: unknown): ConfigIssue[] | undefined {
  const issues = (details as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as ConfigIssue[]) : undefined;
}

function Diff(props: { diff: string }) {
  return (
    <pre class="diff">
      {props.diff.split("\n").map((line, i) => (
        <span key={i} class={line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : ""}>
          {line}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}

function Doctor(props: { conn: GatewayConnection; onFixed(): void; version: number }) {
  const { conn } = props;
  const plan = useRequest<DoctorPlan>(conn, "doctor.plan", undefined, props.version);
  const [applied, setApplied] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const fix = async () => {
    try {
      const result = await conn.request<{ diff?: string }>("doctor.fix");
      setApplied(result.diff ?? "");
      props.onFixed();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const changes = plan.data?.changes ?? [];
  return (
    <article class="card doctor">
      <h2>Doctor</h2>
      {(plan.error || error) && <p class="error">{error ?? plan.error}</p>}
      {applied !== undefined && (
        <>
          <p class="ok" role="status">
            Applied. The gateway reloads the file.
          </p>
          {applied && <Diff diff={applied} />}
        </>
      )}
      {plan.data?.problems?.map((problem) => (
        <p key={problem} class="error">
          {problem}
        </p>
      ))}
      {plan.data && changes.length === 0 && applied === undefined && <p class="muted">Nothing to fix: no retired or renamed keys.</p>}
      {changes.length > 0 && (
        <>
          <ul class="plain">
            {changes.map((c) => (
              <li key={c.key}>
                <code>{c.key}</code> {c.note && <span class="muted">— {c.note}</span>}
              </li>
            ))}
          </ul>
          {plan.data?.diff && <Diff diff={plan.data.diff} />}
          <button type="button" onClick={() => void fix()}>
            Apply (doctor --fix)
          </button>
        </>
      )}
    </article>
  );
}

export function ConfigPage(props: PageProps) {
  const { conn } = props;
  const [version, setVersion] = useState(0);
  const file = useRequest<ConfigRaw>(conn, "config.raw", undefined, version);
  const [draft, setDraft] = useState<string | undefined>();
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [checking, setChecking] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const text = draft ?? file.data?.raw ?? "";
  const dirty = draft !== undefined && draft !== file.data?.raw;

  // Validate what is in the editor (the stored file too: it may be broken on disk).
  useEffect(() => {
    if (file.data === undefined) return;
    let live = true;
    setChecking(true);
    const timer = setTimeout(
      () => {
        conn.request<{ ok: boolean; issues: ConfigIssue[] }>("config.validate", { raw: text }).then(
          (r) => {
            if (!live) return;
            setIssues(r.issues ?? []);
            setChecking(false);
          },
          (err: Error) => {
            if (!live) return;
            setIssues([{ path: "", message: err.message }]);
            setChecking(false);
          },
        );
      },
      draft === undefined ? 0 : VALIDATE_DELAY_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [conn, text, file.data, draft]);

  const placed = useMemo(
    () => issues.map((issue) => ({ issue, line: issue.path ? lineOfPath(text, issue.path) : undefined })),
    [issues, text],
  );
  const lines = text.split("\n");

  const save = async () => {
    if (!file.data) return;
    setError(undefined);
    try {
      await conn.request("config.set", { raw: text, baseHash: file.data.hash });
      setSaved("Saved. The gateway reloads the config.");
      setDraft(undefined);
      setVersion((v) => v + 1);
    } catch (err) {
      const fromDetails = err instanceof RequestError ? issuesOf(err.details) : undefined;
      if (fromDetails) setIssues(fromDetails);
      setSaved(undefined);
      setError((err as Error).message);
    }
  };

  return (
    <section class="config">
      <h1>Config</h1>
      {file.data?.path && (
        <p class="muted">
          <code>{file.data.path}</code> — secrets show as placeholders; saving keeps the stored values.
        </p>
      )}
      {file.error && <p class="error">{file.error}</p>}
      <div class="editor">
        <ol class="gutter" aria-hidden="true">
          {lines.map((_, i) => {
            const here = placed.filter((p) => p.line === i + 1);
            return (
              <li key={i} class={here.length > 0 ? "bad" : ""} title={here.map((p) => p.issue.message).join("\n") || undefined}>
                {i + 1}
              </li>
            );
          })}
        </ol>
        <textarea
          class="code"
          aria-label="Config file"
          spellcheck={false}
          rows={Math.min(Math.max(lines.length + 1, 12), 40)}
          value={text}
          onInput={(e) => {
            setSaved(undefined);
            setDraft((e.target as HTMLTextAreaElement).value);
          }}
        />
      </div>
      <div class="issues" aria-live="polite">
        {checking && <p class="muted">Checking…</p>}
        {!checking && issues.length === 0 && file.data && <p class="ok">The config is valid.</p>}
        {issues.length > 0 && (
          <ul class="plain issue-list">
            {placed.map(({ issue, line }) => (
              <li key={`${issue.path}:${issue.message}`} class="error issue" data-path={issue.path}>
                {line !== undefined ? <span class="line">line {line}</span> : null} <code>{issue.path || "(file)"}</code>: {issue.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div class="toolbar">
        <button type="button" disabled={!dirty || issues.length > 0 || checking} onClick={() => void save()}>
          Save
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!dirty}
          onClick={() => {
            setDraft(undefined);
            setError(undefined);
          }}
        >
          Discard changes
        </button>
      </div>
      {saved && (
        <p class="ok" role="status">
          {saved}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <Doctor conn={conn} version={version} onFixed={() => setVersion((v) => v + 1)} />
    </section>
  );
}
