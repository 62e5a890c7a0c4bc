// The account page (/account): sign in or sign up (a guest keeps what they played in this
// browser), and once signed in: sign out, change the password, delete the account.
import { useState } from "preact/hooks";
import { html } from "./html.js";
import { t } from "./i18n.js";
import { api, errorText, loadAccount } from "./net.js";
import { update, useStore } from "./store.js";

function say(err) {
  update({ notice: { kind: "error", text: errorText(err) } });
}

function CredentialsForm({ kind }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const signUp = kind === "signup";
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      await (signUp ? api.signUp(name, password) : api.signIn(name, password));
      await loadAccount();
      update({ notice: { kind: "info", text: t(signUp ? "account.welcome" : "account.signed_in_notice") } });
    } catch (err) {
      say(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="panel account-form" data-form=${kind} onSubmit=${submit}>
    <h2>${t(signUp ? "account.sign_up" : "account.sign_in")}</h2>
    ${signUp ? html`<p class="sub">${t("account.sign_up_text")}</p>` : null}
    <label>${t("account.name")} <input name="name" autocomplete="username" maxlength="32" required
      value=${name} onInput=${(e) => setName(e.target.value)} /></label>
    <label>${t("account.password")} <input name="password" type="password" required maxlength="128"
      autocomplete=${signUp ? "new-password" : "current-password"} value=${password}
      onInput=${(e) => setPassword(e.target.value)} /></label>
    ${signUp ? html`<p class="sub">${t("account.password_rule")}</p>` : null}
    <button type="submit" class="primary" name=${kind} disabled=${busy}>
      ${t(signUp ? "account.sign_up_button" : "account.sign_in_button")}</button>
  </form>`;
}

function PasswordForm() {
  const [old, setOld] = useState("");
  const [next, setNext] = useState("");
  const submit = async (e) => {
    e.preventDefault();
    try {
      await api.changePassword(old, next);
      setOld("");
      setNext("");
      update({ notice: { kind: "info", text: t("account.password_changed") } });
    } catch (err) {
      say(err);
    }
  };
  return html`<form class="panel account-form" data-form="password" onSubmit=${submit}>
    <h2>${t("account.change_password")}</h2>
    <label>${t("account.password_now")} <input name="old" type="password" autocomplete="current-password" required
      value=${old} onInput=${(e) => setOld(e.target.value)} /></label>
    <label>${t("account.password_new")} <input name="new" type="password" autocomplete="new-password" required
      maxlength="128" value=${next} onInput=${(e) => setNext(e.target.value)} /></label>
    <p class="sub">${t("account.password_rule")}</p>
    <button type="submit" name="change">${t("account.change_password")}</button>
  </form>`;
}

function DeleteForm() {
  const [password, setPassword] = useState("");
  const submit = async (e) => {
    e.preventDefault();
    if (!window.confirm(t("account.delete_confirm"))) return;
    try {
      await api.deleteAccount(password);
      update({ account: null, notice: { kind: "info", text: t("account.deleted") } });
    } catch (err) {
      say(err);
    }
  };
  return html`<form class="panel account-form danger" data-form="delete" onSubmit=${submit}>
    <h2>${t("account.delete")}</h2>
    <p class="sub">${t("account.delete_text")}</p>
    <label>${t("account.password")} <input name="password" type="password" autocomplete="current-password" required
      value=${password} onInput=${(e) => setPassword(e.target.value)} /></label>
    <button type="submit" class="danger" name="delete">${t("account.delete_button")}</button>
  </form>`;
}

export async function signOut() {
  try {
    await api.signOut();
  } catch (err) {
    say(err);
  }
  update({ account: null, notice: { kind: "info", text: t("account.signed_out") } });
}

export function AccountPage() {
  const s = useStore();
  if (!s.accountKnown) return html`<main class="account-page"><p>${t("table.loading")}</p></main>`;
  if (!s.account) {
    return html`<main class="account-page">
      <p class="intro">${t("account.intro")}</p>
      <div class="account-cols"><${CredentialsForm} kind="signin" /><${CredentialsForm} kind="signup" /></div>
    </main>`;
  }
  return html`<main class="account-page">
    <h1>${t("account.signed_in_as", { name: s.account.name })}</h1>
    <p class="links"><a class="button" href="/games">${t("games.title")}</a>
      <a class="button" href=${`/players/${s.account.id}`}>${t("profile.yours")}</a>
      <button type="button" name="signout" onClick=${signOut}>${t("account.sign_out")}</button></p>
    <div class="account-cols"><${PasswordForm} /><${DeleteForm} /></div>
  </main>`;
}
