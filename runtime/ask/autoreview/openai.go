package autoreview

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// OpenAI is a Provider for the OpenAI chat completions API with tool
// calling (and the many servers that speak it): BaseURL (default
// https://api.openai.com) and an API key. Review calls offer the two
// verdict tools and let the model pick one.
type OpenAI struct {
	BaseURL string
	APIKey  string
	Client  *http.Client
}

type chatRequest struct {
	Model               string        `json:"model"`
	Messages            []chatMessage `json:"messages"`
	Tools               []chatTool    `json:"tools"`
	ToolChoice          string        `json:"tool_choice"`
	MaxCompletionTokens int           `json:"max_completion_tokens,omitempty"`
	ReasoningEffort     string        `json:"reasoning_effort,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatTool struct {
	Type     string `json:"type"`
	Function Tool   `json:"function"`
}

type chatResponse struct {
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage Usage `json:"usage"`
}

// Complete makes one review call. A status other than 200, or a body that
// is not a chat completion, is an error (a provider error, retried).
func (o OpenAI) Complete(ctx context.Context, req Request) (Reply, error) {
	body := chatRequest{
		Model:               req.Model,
		Messages:            []chatMessage{{Role: "system", Content: req.System}, {Role: "user", Content: req.User}},
		ToolChoice:          "required",
		MaxCompletionTokens: req.MaxOutputTokens,
	}
	if req.Reasoning != "" && req.Reasoning != "off" {
		body.ReasoningEffort = req.Reasoning
	}
	for _, t := range req.Tools {
		body.Tools = append(body.Tools, chatTool{Type: "function", Function: t})
	}
	b, err := json.Marshal(body)
	if err != nil {
		return Reply{}, err
	}
	base := strings.TrimSuffix(o.BaseURL, "/")
	if base == "" {
		base = "https://api.openai.com"
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/chat/completions", bytes.NewReader(b))
	if err != nil {
		return Reply{}, err
	}
	hr.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(hr)
	if err != nil {
		return Reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return Reply{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Reply{}, fmt.Errorf("the model API answered %s", resp.Status)
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil || len(cr.Choices) == 0 {
		return Reply{}, fmt.Errorf("the model API's answer is not a chat completion")
	}
	ch := cr.Choices[0]
	r := Reply{Text: ch.Message.Content, StopReason: ch.FinishReason, Usage: cr.Usage}
	for _, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{Name: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
	}
	return r, nil
}
