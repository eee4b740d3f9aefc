package registry_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/plannerhq/planner/planner/registry"
)

// TestSchedulerReference: docs/schedulers.md has one "### name" section for
// every registered policy, in the registry's order, and none for a policy
// that is not registered.
func TestSchedulerReference(t *testing.T) {
	page, err := os.ReadFile("../../docs/schedulers.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^### (\S+)$`).FindAllSubmatch(page, -1) {
		documented = append(documented, string(m[1]))
	}
	var registered []string
	for _, p := range registry.Default() {
		registered = append(registered, p.Name)
	}
	if !slices.Equal(documented, registered) {
		t.Errorf("docs/schedulers.md documents\n%v\nthe registry holds\n%v", documented, registered)
	}
}
