import { useState } from "preact/hooks";

/** Asks for the gateway token; the field is a password field and is cleared once submitted. */
export function LoginForm(props: { error?: string | undefined; onToken(token: string): void }) {
  const [value, setValue] = useState("");
  return (
    <main class="login">
      <h1>OpenClaw Control</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const token = value.trim();
          if (!token) return;
          setValue("");
          props.onToken(token);
        }}
      >
        <label for="token">Gateway token</label>
        <input
          id="token"
          name="token"
          type="password"
          autocomplete="off"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          placeholder="from `openclaw dashboard` or <stateDir>/gateway.token"
        />
        <button type="submit">Log in</button>
      </form>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p class="muted">
        The link printed by <code>openclaw dashboard</code> logs in directly. The token stays in this tab only.
      </p>
    </main>
  );
}
