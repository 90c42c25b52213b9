package views

import "selfmap/internal/validate"

// AccountPage is the view model of an account screen: one or more forms
// in a card, with links under them.
type AccountPage struct {
	Title, Intro string
	TestID       string
	Forms        []AccountForm
	Links        []AccountLink
	// AvatarURL shows the user's picture above the forms.
	AvatarURL string
}

// AccountForm is one form of an account screen. Errors map a field name to
// a message id; validate.Form ("") names the form as a whole.
type AccountForm struct {
	Action, Submit, TestID string
	Fields                 []AccountField
	Errors                 validate.FieldErrors
	// Multipart sends files.
	Multipart bool
	// Danger styles the button as a destructive action.
	Danger bool
	// Heading and Text introduce a form on a screen with several.
	Heading, Text string
}

// AccountField is one input. Type is an input type, "textarea", "select",
// "radio" (Options) or "agree" (a checkbox whose label carries Links).
type AccountField struct {
	Name, Label, Type, Value string
	Autocomplete, Hint       string
	Placeholder              string
	MaxLength                int
	// Min and Max bound a date field (YYYY-MM-DD).
	Min, Max string
	Optional bool
	Options  []AccountOption
	Links    []AccountLink
}

// AccountOption is one choice of a select or radio field.
type AccountOption struct{ Value, Label string }

// AccountLink is a link under a form (or inside an agreement's label).
type AccountLink struct{ Label, Href, TestID string }
