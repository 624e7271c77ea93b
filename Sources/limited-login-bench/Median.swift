/// The middle value of a benchmark's rounds (the upper middle of an even count): what each benchmark reports.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
