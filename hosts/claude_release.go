package hosts

// claudeDeclared lists every tool input type Claude Code declares (the
// ToolInputSchemas union of its sdk-tools.d.ts), with the tool name the
// hook receives and what regate does with the tool. The release watch
// (TestClaudeReleaseWatch) holds it to the pinned release's declarations
// (testdata/release/claude-code.txt), so a tool a new release adds fails
// a test until it is reviewed and listed here, and docs/hosts.md names
// every tool listed.
//
// A tool not in claudeTools keeps its own name as its surface; every path
// its input holds, at any depth, still meets the path rules
// (facts/toolpaths.go), and the fields facts' toolFieldRoles names meet
// the read or write rules as well.
var claudeDeclared = map[string]struct{ tool, how string }{
	"AgentInput":                    {"Agent", "task (alias Task)"},
	"ArtifactInput":                 {"Artifact", "own name; file_path, file_paths read, out_dir written into"},
	"AskUserQuestionInput":          {"AskUserQuestion", "own name"},
	"BashInput":                     {"Bash", "bash"},
	"ClaudeDesignInput":             {"ClaudeDesign", "own name"},
	"CronCreateInput":               {"CronCreate", "own name"},
	"CronDeleteInput":               {"CronDelete", "own name"},
	"CronListInput":                 {"CronList", "own name"},
	"EnterPlanModeInput":            {"EnterPlanMode", "own name"},
	"EnterWorktreeInput":            {"EnterWorktree", "own name; path meets the path rules"},
	"ExitPlanModeInput":             {"ExitPlanMode", "own name"},
	"ExitWorktreeInput":             {"ExitWorktree", "own name"},
	"FileEditInput":                 {"Edit", "edit"},
	"FileReadInput":                 {"Read", "read"},
	"FileWriteInput":                {"Write", "write"},
	"GlobInput":                     {"Glob", "find"},
	"GrepInput":                     {"Grep", "grep"},
	"ListMcpResourcesInput":         {"ListMcpResourcesTool", "mcp SERVER:resources/list; own name without a server"},
	"McpInput":                      {"mcp__SERVER__TOOL", "mcp"},
	"MonitorInput":                  {"Monitor", "bash"},
	"NotebookEditInput":             {"NotebookEdit", "edit"},
	"OfferChromeSetupInput":         {"OfferChromeSetup", "own name"},
	"ProjectsInput":                 {"Projects", "own name; local_path read"},
	"ProposeGoalInput":              {"ProposeGoal", "own name"},
	"ProposeSkillsInput":            {"ProposeSkills", "own name"},
	"PushNotificationInput":         {"PushNotification", "own name"},
	"ReadMcpResourceDirInput":       {"ReadMcpResourceDirTool", "mcp SERVER:resources/read {uri}"},
	"ReadMcpResourceInput":          {"ReadMcpResourceTool", "mcp SERVER:resources/read {uri}"},
	"ReadNotificationsInput":        {"ReadNotifications", "own name"},
	"RefreshMcpToolsInput":          {"RefreshMcpTools", "own name"},
	"RemoteTriggerInput":            {"RemoteTrigger", "own name"},
	"ReportFindingsInput":           {"ReportFindings", "own name; each finding's file meets the path rules"},
	"ScheduleWakeupInput":           {"ScheduleWakeup", "own name"},
	"SendFeedbackInput":             {"SendFeedback", "own name"},
	"ShowOnboardingRolePickerInput": {"ShowOnboardingRolePicker", "own name"},
	"TaskCreateInput":               {"TaskCreate", "own name"},
	"TaskGetInput":                  {"TaskGet", "own name"},
	"TaskListInput":                 {"TaskList", "own name"},
	"TaskStopInput":                 {"TaskStop", "own name (aliases KillShell, KillBash)"},
	"TaskUpdateInput":               {"TaskUpdate", "own name"},
	"TodoWriteInput":                {"TodoWrite", "own name"},
	"WebFetchInput":                 {"WebFetch", "own name"},
	"WebSearchInput":                {"WebSearch", "own name"},
	"WorkflowInput":                 {"Workflow", "own name; scriptPath read (alias RunWorkflow)"},
}

// claudeUndeclared are tools Claude Code 2.1.332 offers its model that its
// sdk-tools.d.ts does not declare (the offered-tool fixture,
// testdata/release/claude-offered.txt, shows them): a message to another
// agent of the session (SendMessage {to, message, summary}) and the list
// of those agents (ListAgents {channel, cursor, q}). They keep their own
// name and ask under the bundled default policy.
var claudeUndeclared = []string{"SendMessage", "ListAgents"}
