package geo

// noPostalCode lists the countries whose addresses carry no postal code,
// after the address formats of the Universal Postal Union's members as
// Google's libaddressinput metadata records them (no "zip" field): a card
// form does not ask a buyer there for one.
var noPostalCode = map[string]bool{
	"AE": true, "AG": true, "AO": true, "AW": true, "BF": true, "BI": true, "BJ": true, "BO": true, "BS": true,
	"BW": true, "BZ": true, "CD": true, "CF": true, "CG": true, "CI": true, "CK": true, "CM": true, "DJ": true,
	"DM": true, "ER": true, "FJ": true, "GA": true, "GD": true, "GH": true, "GM": true, "GQ": true, "GY": true,
	"HK": true, "JM": true, "KI": true, "KM": true, "KN": true, "KP": true, "LC": true, "ML": true, "MO": true,
	"MR": true, "MS": true, "MW": true, "NR": true, "NU": true, "QA": true, "RW": true, "SB": true, "SC": true,
	"SL": true, "SR": true, "ST": true, "SY": true, "TF": true, "TK": true, "TL": true, "TO": true, "TT": true,
	"TV": true, "UG": true, "VU": true, "YE": true, "ZW": true,
}

// UsesPostalCode reports whether a country's addresses have a postal code.
// An unknown country ("", "*") is asked for one, as card networks expect.
func UsesPostalCode(country string) bool {
	return !noPostalCode[country]
}
