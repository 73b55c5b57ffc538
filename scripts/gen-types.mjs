// placeholder: replaced by the schema work (issue 2)
console.log('gen-types: no schemas yet');
