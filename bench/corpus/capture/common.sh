# Helpers shared by the cli capture scripts (cli2.sh, cli3.sh, cli4.sh); sourced, never run.
# Contract: the sourcing script sets S (its scratch root under /tmp), HERE (this folder) and DIFFS (where
# inject writes each item's diff) first, and has made $S/dl and $S/debsrc when it uses sdist and debsrc.
# Defining functions is all that sourcing does. The scripts' `check` sections use common.py (check_part).

# norm_paths [sed -e script ...]: stdin -> stdout with the script's own path rewrites (the arguments, first),
# then the rewrites every group has: the rest of $S, the repository checkout and /root/ -> runner-style paths.
norm_paths() {
  sed "$@" -e "s#$S/#/home/runner/work/#g" \
           -e "s#${HERE%/bench/corpus/capture}#/home/runner/work/ctxhub/ctxhub#g" \
           -e "s#/root/#/home/runner/#g"
}

# Replace `old` (must occur exactly once) by `new` in a file; append the unified diff to $DIFFS/<id>.diff.
inject() {
  local id=$1 root=$2 rel=$3 old=$4 new=$5
  python3 - "$root" "$rel" "$old" "$new" "$DIFFS/$id.diff" <<'PY'
import difflib, sys
root, rel, old, new, diffs = sys.argv[1:]
path = f"{root}/{rel}"
text = open(path, encoding="utf-8").read()
assert text.count(old) == 1, (rel, old, text.count(old))
changed = text.replace(old, new)
open(path, "w", encoding="utf-8").write(changed)
diff = difflib.unified_diff(text.splitlines(True), changed.splitlines(True), f"a/{rel}", f"b/{rel}", n=1)
open(diffs, "a", encoding="utf-8").write("".join(diff))
PY
}

sdist() {  # name version: the PyPI sdist into $S/dl
  ls "$S/dl/$1-$2".tar.gz > /dev/null 2>&1 || python3 -m pip download -q --no-deps --no-binary :all: -d "$S/dl" "$1==$2"
}

debsrc() {  # name orig-tarball: apt-get source --download-only (needs a deb-src line)
  [ -f "$S/debsrc/$2" ] || (cd "$S/debsrc" && apt-get source --download-only "$1" > /dev/null)
}

unpack() {  # tarball dir: a fresh copy of the tarball's top folder at dir
  rm -rf "$2"; mkdir -p "$2"; tar xf "$1" -C "$2" --strip-components=1
}

# Commit successive sdists of a PyPI project into a fresh git repo $S/git/<name>, one commit per release:
# author from PKG-INFO, author/committer date = newest file mtime in the sdist, message "<name> <version>"
# plus that version's section of the changelog shipped in the sdist (rst or markdown setext headings,
# "1.2.3", "1.2.3 (date)" or "Version 1.2.3"), a tag per version.
release_repo() {
  local name=$1 changelog=$2; shift 2
  local R=$S/git/$name
  rm -rf "$R"; mkdir -p "$R"; git -C "$R" init -q -b main
  for v in "$@"; do
    sdist "$name" "$v"
    python3 - "$R" "$S/dl/$name-$v.tar.gz" "$name" "$v" "$changelog" <<'PY'
import email.parser, os, re, shutil, subprocess, sys, tarfile, datetime
repo, tgz, name, version, changelog = sys.argv[1:]
for entry in os.listdir(repo):
    if entry != ".git":
        p = os.path.join(repo, entry)
        shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
with tarfile.open(tgz) as tar:
    members = [m for m in tar.getmembers() if "/" in m.name]
    newest = max(m.mtime for m in members if m.isfile())
    top = members[0].name.split("/")[0]
    for m in members:
        m.name = m.name[len(top) + 1:]
    tar.extractall(repo, members=[m for m in members if m.name])
info = email.parser.Parser().parsestr(open(os.path.join(repo, "PKG-INFO"), encoding="utf-8").read())
author = info.get("Author") or info.get("Maintainer") or ""
mail = info.get("Author-email") or info.get("Maintainer-email") or ""
m = re.match(r"(.*?)\s*<(.+)>", mail)
if m:
    author, mail = author or m.group(1), m.group(2)
log = os.path.join(repo, changelog)
text = open(log, encoding="utf-8").read() if os.path.exists(log) else ""
head = rf"^(?:Version )?{re.escape(version)}(?: \([^\n]*\))?\n[-+=]+\n"
sec = re.search(rf"{head}(.*?)(?=^\S[^\n]*\n[-+=]{{3,}}\n|\Z)", text, re.M | re.S)
body = sec.group(1).strip() if sec else ""
date = datetime.datetime.fromtimestamp(newest, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+0000")
env = dict(os.environ, GIT_AUTHOR_NAME=author, GIT_AUTHOR_EMAIL=mail, GIT_AUTHOR_DATE=date,
           GIT_COMMITTER_NAME=author, GIT_COMMITTER_EMAIL=mail, GIT_COMMITTER_DATE=date)
subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
msg = f"{name} {version}\n\n{body}\n" if body else f"{name} {version}\n"
subprocess.run(["git", "commit", "-q", "-F", "-"], input=msg.encode(), cwd=repo, env=env, check=True)
subprocess.run(["git", "tag", version], cwd=repo, check=True)
PY
  done
}

