package server

import "container/list"

// delegationLRU keeps the delegation API's roots and children, at most max
// of them, evicting the least recently used. Using an entry touches every
// entry above it, so that a child is always evicted before its parent.
// Callers hold delegations.mu.
type delegationLRU struct {
	max   int
	order *list.List // of *delegationEntry, the most recent first
	by    map[string]*list.Element
}

func newDelegationLRU(max int) delegationLRU {
	return delegationLRU{max: max, order: list.New(), by: map[string]*list.Element{}}
}

// get returns the entry with id, touching it and its ancestors, or nil.
func (l *delegationLRU) get(id string) *delegationEntry {
	el, ok := l.by[id]
	if !ok {
		return nil
	}
	e := el.Value.(*delegationEntry)
	l.touch(e)
	return e
}

// touch moves e and then each of its ancestors to the front, so that the
// root ends up most recent.
func (l *delegationLRU) touch(e *delegationEntry) {
	for p := e; p != nil; p = p.parent {
		if el, ok := l.by[p.id]; ok {
			l.order.MoveToFront(el)
		}
	}
}

// add keeps e, touching its ancestors, and evicts past the bound.
func (l *delegationLRU) add(e *delegationEntry) {
	l.by[e.id] = l.order.PushFront(e)
	l.touch(e)
	for l.order.Len() > l.max {
		l.remove(l.order.Back().Value.(*delegationEntry))
	}
}

// remove ends e's run and every run beneath it and forgets them: a child
// exits (its descendants stop with it), a root's run halts.
func (l *delegationLRU) remove(e *delegationEntry) {
	if e.child != nil {
		e.child.Exit()
	} else {
		e.root.run.Halt()
	}
	for id, el := range l.by {
		if d := el.Value.(*delegationEntry); d.below(e) {
			l.order.Remove(el)
			delete(l.by, id)
		}
	}
}

// below reports whether e is a or lies beneath it.
func (e *delegationEntry) below(a *delegationEntry) bool {
	for p := e; p != nil; p = p.parent {
		if p == a {
			return true
		}
	}
	return false
}
