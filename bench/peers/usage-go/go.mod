module usage-go

go 1.19
