package mail

// KindRegisterNotice tells an address's owner that someone tried to sign up
// with it, with links to log in and to reset the password; it carries no
// code. Its data are the Vars LoginURL and ResetURL.
const KindRegisterNotice = "register_notice"

// init adds the kind to those LoadTemplates parses.
func init() { kinds = append(kinds, KindRegisterNotice) }
