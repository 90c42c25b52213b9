package exam

// Flow is what the question flow shows of an exam in one locale: the model
// the question page and its island are built from, the same for every
// instrument.
type Flow struct {
	// Questions are every item in the exam's order.
	Questions []Question
	// Scale is the answer scale of the Likert items, with the stem.
	Scale Scale
	// Parts and PageSize are the exam's paging: Parts parts of equal
	// length, PageSize items a page.
	Parts    int
	PageSize int
}

// Flow returns the exam's question flow in a locale (English for a locale
// its instrument lacks).
func (e Exam) Flow(locale string) Flow {
	return Flow{Questions: e.Instrument.Questions(locale), Scale: e.Instrument.Scale(locale), Parts: e.Parts, PageSize: e.PageSize}
}

// FirstPage is the first page of items, rendered by the server before the
// island takes over.
func (f Flow) FirstPage() []Question { return f.Questions[:min(f.PageSize, len(f.Questions))] }
