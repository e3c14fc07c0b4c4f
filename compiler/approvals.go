package compiler

import "fmt"

// Approval is a session approval: what the user approved "for this session"
// on one surface (R5).
type Approval struct {
	Surface string `json:"surface"`
	Pattern string `json:"pattern"`
}

// CompileApprovals lowers session approvals to one matcher per surface, in
// the form the Rego library reads from input.session.approvals. Approvals
// change during a session, so they travel with the call instead of being
// compiled into the prepared policy.
func CompileApprovals(approvals []Approval, home string) (map[string]any, error) {
	bySurface := map[string][]Rule{}
	for i, a := range approvals {
		if a.Surface == "" {
			return nil, fmt.Errorf("compiler: approval %d has no surface", i)
		}
		bySurface[a.Surface] = append(bySurface[a.Surface], Rule{
			Pattern: a.Pattern,
			Action:  Allow,
			Pos:     Pos{File: "session", Line: i + 1, Col: 1},
		})
	}
	out := make(map[string]any, len(bySurface))
	for s, rules := range bySurface {
		out[s] = buildMatcher(s, rules, home, false, true)
	}
	return out, nil
}
