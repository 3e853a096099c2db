# Sourced by bench/admission-cost.sh and bench/admission-micro.sh: temporary worktrees of HEAD under
# /tmp, one as it is and one without the event loop's work meter (bench/admission-off.patch). Each
# function leaves the new worktree's path in $worktree; remove_worktrees (the caller's EXIT trap)
# removes every one made.

made_worktrees=()
worktree_repo=
worktree=

# REPO NAME: a new detached worktree of REPO's HEAD at /tmp/NAME.XXXXXX, REPO's node_modules linked in.
new_worktree() {
  local repo=$1 name=$2
  worktree_repo=$repo
  worktree=$(mktemp -d "/tmp/$name.XXXXXX")
  rmdir "$worktree"
  git -C "$repo" worktree add --detach --quiet "$worktree" HEAD
  made_worktrees+=("$worktree")
  ln -s "$repo/node_modules" "$worktree/node_modules"
}

# REPO: a worktree of HEAD with bench/admission-off.patch applied; exits 3 with a clear message when
# the patch no longer applies (the route's gates moved: remake the patch, bench/README.md).
admission_off_worktree() {
  local repo=$1 errors
  new_worktree "$repo" admission-off
  if ! errors=$(git -C "$worktree" apply "$repo/bench/admission-off.patch" 2>&1); then
    echo "bench/admission-off.patch no longer applies to HEAD ($(git -C "$repo" rev-parse --short HEAD)):" >&2
    echo "$errors" | sed 's/^/  /' >&2
    echo "  src/adapters/http/api-routes.ts changed where the meter's gates are: remake the patch (bench/README.md)." >&2
    exit 3
  fi
}

remove_worktrees() {
  local dir
  for dir in "${made_worktrees[@]}"; do
    [[ -n $dir && -d $dir ]] || continue
    rm -f "$dir/node_modules"
    git -C "$worktree_repo" worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
  done
  [[ -z $worktree_repo ]] || git -C "$worktree_repo" worktree prune 2>/dev/null || true
}
