package registry

import (
	"fmt"
	"sort"
	"strconv"
)

// The versioning policy rules (docs/rules.md, BQ063–BQ065; docs/decisions.md#versioning-policy):
// a `.vN` URN names its predecessor in `supersedes:`, and a superseded URN is deprecated.
const (
	// RuleSupersedesPredecessor: a `.vN` whose predecessor is in the registry but not
	// named in `supersedes:`.
	RuleSupersedesPredecessor = "BQ063"
	// RuleNoEarlierVersion: a `.vN` with no earlier version in the registry.
	RuleNoEarlierVersion = "BQ064"
	// RuleSupersededNotDeprecated: a URN that another one supersedes is not deprecated.
	RuleSupersededNotDeprecated = "BQ065"
)

func init() {
	rules = append(rules,
		Rule{ID: RuleSupersedesPredecessor, Severity: SeverityWarning,
			Title:       "`.vN` URN whose predecessor (the highest earlier version in the registry) is not named in `supersedes:`",
			Source:      "docs/contract.md#versioning; docs/decisions.md#versioning-policy",
			Hint:        "add `supersedes: <predecessor>` to the new version",
			Silenceable: true},
		Rule{ID: RuleNoEarlierVersion, Severity: SeverityWarning,
			Title:       "`.vN` URN with no earlier version in the registry and no `supersedes:`",
			Source:      "docs/contract.md#urn-naming, docs/contract.md#versioning; docs/decisions.md#versioning-policy",
			Hint:        "the first version of a URN has no suffix; keep the earlier version (deprecated) until it is retired",
			Silenceable: true},
		Rule{ID: RuleSupersededNotDeprecated, Severity: SeverityWarning,
			Title:       "URN superseded by another but not marked `deprecated`",
			Source:      "docs/contract.md#versioning; docs/decisions.md#versioning-policy",
			Hint:        "add `deprecated: \"Use <successor>.\"` to the superseded URN",
			Silenceable: true},
	)
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].ID < rules[j].ID })
}

// urnVersion splits a URN into its unversioned base and its version: 1 for a URN
// without a `.vN` suffix, N for `.vN` (N ≥ 2). ok is false for a suffix BQ014 rejects
// (`.v0`, `.v1`, a leading zero).
func urnVersion(urn string) (base string, n int, ok bool) {
	mm := versionRe.FindStringSubmatchIndex(urn)
	if mm == nil {
		return urn, 1, true
	}
	digits := urn[mm[2]:mm[3]]
	v, err := strconv.Atoi(digits)
	if err != nil || v < 2 || digits[0] == '0' {
		return "", 0, false
	}
	return urn[:mm[0]], v, true
}

// versionName is the URN of version n of base: base itself for 1, else base.vN.
func versionName(base string, n int) string {
	if n == 1 {
		return base
	}
	return base + ".v" + strconv.Itoa(n)
}

// predecessor is the highest of versions below n, 0 when there is none.
func predecessor(n int, versions []int) int {
	pred := 0
	for _, v := range versions {
		if v < n && v > pred {
			pred = v
		}
	}
	return pred
}

// Predecessor returns the URN that BQ063 requires a message urn to name in
// `supersedes:` when the registry holds urns: the highest earlier version of urn's
// family (the same URN without its `.vN` suffix; the unsuffixed URN is version 1).
// It returns "" when urn is a first version, has a suffix BQ014 rejects, or no earlier
// version is among urns.
func Predecessor(urn string, urns []string) string {
	base, n, ok := urnVersion(urn)
	if !ok || n == 1 {
		return ""
	}
	var versions []int
	for _, u := range urns {
		if b, v, ok := urnVersion(u); ok && b == base {
			versions = append(versions, v)
		}
	}
	if pred := predecessor(n, versions); pred > 0 {
		return versionName(base, pred)
	}
	return ""
}

// checkVersioning reports the versioning policy: BQ063 and BQ064 at a `.vN` message,
// BQ065 at a superseded message. A registry left partial by an unreadable file is not
// judged on what may be in that file (BQ064 and BQ063 need every version).
func checkVersioning(l *loader) {
	// versions maps an unversioned base to the versions present.
	versions := map[string][]int{}
	for _, m := range l.reg.Messages {
		if badURN(m.URN) {
			continue
		}
		if base, n, ok := urnVersion(m.URN); ok {
			versions[base] = append(versions[base], n)
		}
	}
	for _, m := range l.reg.Messages {
		base, n, ok := urnVersion(m.URN)
		if !ok || n == 1 || badURN(m.URN) || l.partial {
			continue
		}
		l.curLint = m.Lint
		pred := predecessor(n, versions[base])
		switch {
		case pred > 0 && m.Supersedes != versionName(base, pred):
			p := versionName(base, pred)
			msg := fmt.Sprintf("message %q does not name its predecessor %q in supersedes", m.URN, p)
			if m.Supersedes != "" {
				msg = fmt.Sprintf("message %q supersedes %q, not its predecessor %q", m.URN, m.Supersedes, p)
			}
			l.report(m.Pos, RuleSupersedesPredecessor, msg, "write `supersedes: "+p+"`")
		case pred == 0 && m.Supersedes == "":
			l.report(m.Pos, RuleNoEarlierVersion,
				fmt.Sprintf("message %q has no earlier version in the registry (no %q)", m.URN, versionName(base, n-1)),
				fmt.Sprintf("a first version has no suffix: name it %s; if the earlier version was retired, silence BQ064 with the reason", base))
		}
	}
	reported := map[string]bool{}
	for _, m := range l.reg.Messages {
		if m.Supersedes == "" || m.Supersedes == m.URN || reported[m.Supersedes] {
			continue
		}
		old := l.reg.Message(m.Supersedes)
		if old == nil || old.Deprecation != nil {
			continue
		}
		reported[old.URN] = true
		l.curLint = old.Lint
		l.report(old.Pos, RuleSupersededNotDeprecated,
			fmt.Sprintf("message %q is superseded by %q but not deprecated", old.URN, m.URN),
			fmt.Sprintf("add `deprecated: \"Use %s.\"` to %s, so that generated code and the catalog point its users to the new version", m.URN, old.URN))
	}
	l.curLint = nil
}
